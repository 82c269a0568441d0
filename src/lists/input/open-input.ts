/**
 * A stored upload → a readable stream of its delimited text bytes, whatever the container.
 *
 * The content decides whether it is a zip (its magic number), not only the name: a published
 * client may send `name=myfile.csv` with any upload, and a `.zip` name on something that is not a
 * zip is refused. The extension of the text inside (`.csv`/`.txt`) sets the default delimiter
 * and the results file's extension.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { pipeline, type Readable } from 'node:stream';
import { fail, ok, type Outcome } from '../outcome.js';
import { InputError } from './input-error.js';
import type { ListFormat, TextExtension } from './list-name.js';
import { decodeText } from './text-decoder.js';
import { openZipEntry, type ZipLimits } from './zip-input.js';

export interface OpenedInput {
  /** Raw bytes of the text file (decode with `decodeText`; `readRecords` does). */
  stream: Readable;
  extension: TextExtension;
  zipped: boolean;
  /** The file name inside the zip. */
  innerName?: string;
}

/**
 * Bytes per read of a plain upload. Each read is parsed in one go on the event loop, and the list
 * pipeline waits on the network (DNS) between those stretches: 16 KiB (zlib's own chunk, so a
 * zipped upload reads the same) keeps them near a millisecond, where 64 KiB took several.
 */
const READ_BYTES = 16 * 1024;

async function looksLikeZip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    if (bytesRead < 4) return false;
    // Local file header, or the end record of an empty archive.
    return head.readUInt32LE(0) === 0x04034b50 || head.readUInt32LE(0) === 0x06054b50;
  } finally {
    await handle.close();
  }
}

/** Throws only for our own I/O failures (a missing upload); problems of the file are values. */
export async function openInput(path: string, format: ListFormat, limits: ZipLimits = {}): Promise<Outcome<OpenedInput>> {
  const { size } = await stat(path);
  if (size === 0) return fail('The file is empty');
  if (await looksLikeZip(path)) {
    const entry = await openZipEntry(path, limits);
    if (!entry.ok) return entry;
    return ok({ stream: entry.value.stream, extension: entry.value.extension, zipped: true, innerName: entry.value.innerName });
  }
  if (format === 'zip') return fail('The file is not a valid zip archive');
  return ok({ stream: createReadStream(path, { highWaterMark: READ_BYTES }), extension: format, zipped: false });
}

/** How much of the text `inspectInput` reads. */
export const INSPECT_BYTES = 64 * 1024;

const BLANK = new Set([0x20, 0x09, 0x0d, 0x0a, 0x2c, 0x3b, 0x7c]);

/**
 * The synchronous checks of a submission (decisions §6: 422 for a bad zip, an empty or
 * undecodable file): opens the upload, reads the start of its text and closes it again.
 * Deeper problems (bad CSV far into the file, a zip that inflates past the caps later) are
 * found by `prepareList` and end the list `Invalid`.
 */
export async function inspectInput(
  path: string,
  format: ListFormat,
  limits: ZipLimits = {},
): Promise<Outcome<Omit<OpenedInput, 'stream'>>> {
  const opened = await openInput(path, format, limits);
  if (!opened.ok) return opened;
  const { stream, ...facts } = opened.value;
  // Windows-1252 never fails to decode, so only binary content and bad UTF-16 are refused here.
  const text = decodeText('windows-1252');
  pipeline(stream, text, () => {});
  let seen = 0;
  let blank = true;
  try {
    for await (const chunk of text as AsyncIterable<Buffer>) {
      if (blank && chunk.some((byte) => !BLANK.has(byte))) blank = false;
      seen += chunk.length;
      if (seen >= INSPECT_BYTES) break;
    }
  } catch (err) {
    if (err instanceof InputError) return fail(err.reason);
    throw err;
  } finally {
    text.destroy();
  }
  if (blank && seen < INSPECT_BYTES) return fail('The file is empty');
  return ok(facts);
}
