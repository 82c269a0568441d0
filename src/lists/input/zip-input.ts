/**
 * The one text file inside an uploaded `.zip`. Entries are read lazily (yauzl `lazyEntries`),
 * so a zip claiming millions of entries costs nothing before it is refused. Directory entries,
 * `__MACOSX/` metadata and desktop litter (`.DS_Store`, `Thumbs.db`, AppleDouble `._*`) are not
 * files of the list. Nothing is ever extracted to disk, but unsafe names (`../`, absolute
 * paths) are still refused: no honest client produces them.
 *
 * Zip bombs: the declared size and ratio are checked before reading, and checked again while
 * the data streams (yauzl also fails a stream that outgrows its declared size), so a lying
 * header cannot make us inflate more than the caps.
 */
import type { Readable } from 'node:stream';
import { Transform, type TransformCallback } from 'node:stream';
import yauzl from 'yauzl';
import { fail, ok, type Outcome } from '../outcome.js';
import { InputError } from './input-error.js';
import type { TextExtension } from './list-name.js';

export interface ZipLimits {
  /** Largest uncompressed size of the inner file; default 2 GiB. */
  maxUncompressedBytes?: number;
  /** Largest uncompressed:compressed ratio; default 200. */
  maxCompressionRatio?: number;
  /** Below this many uncompressed bytes the ratio is not checked (tiny files compress well). */
  ratioFloorBytes?: number;
  /** Entries read before giving up counting; default 10,000. */
  maxEntries?: number;
}

export const DEFAULT_ZIP_LIMITS: Required<ZipLimits> = {
  maxUncompressedBytes: 2 * 1024 ** 3,
  maxCompressionRatio: 200,
  ratioFloorBytes: 1024 ** 2,
  maxEntries: 10_000,
};

export interface ZipEntryStream {
  stream: Readable;
  innerName: string;
  extension: TextExtension;
}

export function formatBytes(n: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (n >= size && n % size === 0) return `${n / size} ${unit}`;
  }
  return `${n} bytes`;
}

const tooLarge = (max: number) => `The file inside the zip is larger than ${formatBytes(max)} uncompressed`;
const tooCompressed = (ratio: number) => `The file inside the zip is compressed more than ${ratio}:1`;

function isLitter(fileName: string): boolean {
  if (fileName.endsWith('/') || fileName.startsWith('__MACOSX/')) return true;
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  return base === '.DS_Store' || base === 'Thumbs.db' || base === 'desktop.ini' || base.startsWith('._');
}

function printable(name: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > 100 ? `${clean.slice(0, 100)}…` : clean;
}

/** yauzl's own name checks, in words for the caller. */
function describeZipError(err: unknown): string {
  const message = err instanceof Error ? err.message : '';
  const unsafe = /^(invalid relative path|absolute path|invalid characters in fileName): (.*)$/s.exec(message);
  if (unsafe) return `The zip contains an unsafe file name ("${printable(unsafe[2]!)}")`;
  return 'The zip archive is corrupt';
}

function extensionOf(fileName: string): TextExtension | undefined {
  const ext = /\.([^./]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return ext === 'csv' || ext === 'txt' ? ext : undefined;
}

/** Counts inflated bytes and fails the stream past either cap. */
export function sizeGuard(compressedSize: number, limits: Required<ZipLimits> = DEFAULT_ZIP_LIMITS): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      seen += chunk.length;
      if (seen > limits.maxUncompressedBytes) return done(new InputError('too-large', tooLarge(limits.maxUncompressedBytes)));
      if (seen > limits.ratioFloorBytes && seen > limits.maxCompressionRatio * Math.max(1, compressedSize)) {
        return done(new InputError('too-large', tooCompressed(limits.maxCompressionRatio)));
      }
      done(null, chunk);
    },
  });
}

/** Opens the zip's single list file as a stream of its (inflated, size-checked) bytes. */
export async function openZipEntry(path: string, given: ZipLimits = {}): Promise<Outcome<ZipEntryStream>> {
  const limits = { ...DEFAULT_ZIP_LIMITS, ...given };
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true });
  } catch {
    return fail('The file is not a valid zip archive');
  }
  let keep = false;
  try {
    const files: yauzl.Entry[] = [];
    let officeDocument = false;
    let counted = 0;
    try {
      for await (const entry of zip.eachEntry()) {
        if (++counted > limits.maxEntries) break;
        if (entry.fileName === '[Content_Types].xml') officeDocument = true;
        if (!isLitter(entry.fileName)) files.push(entry);
      }
    } catch (err) {
      return fail(describeZipError(err));
    }
    if (files.length !== 1 && officeDocument) {
      return fail('Spreadsheet workbooks are not accepted; save the sheet as .csv or .txt');
    }
    if (counted > limits.maxEntries) {
      return fail(`The zip must contain exactly one file (found more than ${limits.maxEntries.toLocaleString('en-US')})`);
    }
    if (files.length !== 1) return fail(`The zip must contain exactly one file (found ${files.length})`);
    const entry = files[0]!;
    const name = entry.fileName;
    const extension = extensionOf(name);
    if (!extension) return fail(`The file inside the zip must be a .csv or .txt file (found "${printable(name)}")`);
    if (entry.isEncrypted()) return fail('The file inside the zip is encrypted');
    if (!entry.canDecodeFileData()) return fail('The file inside the zip uses an unsupported compression method');
    if (entry.uncompressedSize === 0) return fail('The file is empty');
    if (entry.uncompressedSize > limits.maxUncompressedBytes) return fail(tooLarge(limits.maxUncompressedBytes));
    if (
      entry.uncompressedSize > limits.ratioFloorBytes &&
      entry.uncompressedSize > limits.maxCompressionRatio * Math.max(1, entry.compressedSize)
    ) {
      return fail(tooCompressed(limits.maxCompressionRatio));
    }
    let raw: Readable;
    try {
      raw = await zip.openReadStreamPromise(entry);
    } catch (err) {
      return fail(describeZipError(err));
    }
    keep = true;
    zip.close(); // the file descriptor stays open until `raw` ends or is destroyed
    const guard = sizeGuard(entry.compressedSize, limits);
    raw.on('error', (err) => guard.destroy(err instanceof InputError ? err : new InputError('zip', describeZipError(err))));
    guard.on('close', () => {
      if (!raw.destroyed) {
        raw.unpipe(guard);
        raw.destroy();
      }
    });
    raw.pipe(guard);
    return ok({ stream: guard, innerName: name, extension });
  } finally {
    if (!keep) zip.close();
  }
}
