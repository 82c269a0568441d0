/**
 * The first stretch of a list's text, decoded as the scan decoded it: what the delimiter check
 * (delimiter-check.ts) reads, since it must split the same lines with several delimiters.
 */
import { pipeline } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { InputError } from './input-error.js';
import type { ListFormat } from './list-name.js';
import { openInput } from './open-input.js';
import { decodeText, type FallbackEncoding } from './text-decoder.js';
import type { ZipLimits } from './zip-input.js';

/** Enough for a header and a hundred rows of an ordinary list. */
export const TEXT_HEAD_BYTES = 64 * 1024;

export interface TextHead {
  text: string;
  /** The whole file: nothing follows `text`. */
  complete: boolean;
}

/** Called after the scan read the whole file, so a failure here is thrown: the upload changed. */
export async function readTextHead(
  path: string,
  format: ListFormat,
  encoding: FallbackEncoding,
  options: { zipLimits?: ZipLimits; maxBytes?: number } = {},
): Promise<TextHead> {
  const maxBytes = options.maxBytes ?? TEXT_HEAD_BYTES;
  const opened = await openInput(path, format, options.zipLimits);
  if (!opened.ok) throw new InputError('zip', opened.reason);
  const decoded = decodeText(encoding);
  pipeline(opened.value.stream, decoded, () => {});
  const utf8 = new StringDecoder('utf8');
  let text = '';
  let seen = 0;
  try {
    for await (const chunk of decoded as AsyncIterable<Buffer>) {
      const piece = seen + chunk.length > maxBytes ? chunk.subarray(0, maxBytes - seen) : chunk;
      text += utf8.write(piece);
      seen += piece.length;
      if (seen >= maxBytes) return { text, complete: false };
    }
  } finally {
    decoded.destroy();
  }
  return { text: text + utf8.end(), complete: true };
}
