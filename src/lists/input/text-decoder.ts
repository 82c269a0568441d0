/**
 * Bytes of an uploaded list → UTF-8 bytes for the CSV parser.
 *
 * A byte-order mark decides first (UTF-8, UTF-16LE — Excel's "Unicode Text" export — or
 * UTF-16BE) and is dropped. Without one the caller's choice applies: UTF-8, validated as it
 * streams, or Windows-1252 (Excel's "CSV" export on Windows), which `prepareList` retries with
 * when a file is not valid UTF-8. A NUL byte means the upload is not text at all.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { TextDecoder } from 'node:util';
import { InputError } from './input-error.js';

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';
export type FallbackEncoding = 'utf-8' | 'windows-1252';

export interface DetectedEncoding {
  encoding: TextEncoding;
  bom: boolean;
}

// Windows-1252 differs from Latin-1 only in 0x80–0x9F; Node's TextDecoder maps it as Latin-1.
const C1 = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019,
  0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
].map((cp) => String.fromCodePoint(cp));

export function decodeWindows1252(bytes: Buffer): string {
  return bytes.toString('latin1').replace(/[\u0080-\u009f]/g, (c) => C1[c.charCodeAt(0) - 0x80]!);
}

const notText = () => new InputError('binary', 'The file is not a text file');

function sniffBom(head: Buffer): { encoding: TextEncoding; length: number } | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return undefined;
}

/** A Transform from the file's bytes to UTF-8 bytes; errors are `InputError`s. */
export function decodeText(fallback: FallbackEncoding = 'utf-8', onDetect?: (d: DetectedEncoding) => void): Transform {
  let head: Buffer | undefined = Buffer.alloc(0);
  let encoding: TextEncoding = fallback;
  let decoder: TextDecoder | undefined;

  const convert = (bytes: Buffer, final: boolean): Buffer => {
    if (encoding === 'windows-1252') {
      if (bytes.includes(0)) throw notText();
      return Buffer.from(decodeWindows1252(bytes), 'utf8');
    }
    let text: string;
    try {
      text = final ? decoder!.decode(bytes) : decoder!.decode(bytes, { stream: true });
    } catch {
      throw encoding === 'utf-8'
        ? new InputError('not-utf8', 'The file is not valid UTF-8 text')
        : new InputError('encoding', 'The file is not valid UTF-16 text');
    }
    if (text.includes('\0')) throw notText();
    // UTF-8 passes through as it came: it was only validated.
    return encoding === 'utf-8' ? bytes : Buffer.from(text, 'utf8');
  };

  const start = (bytes: Buffer): Buffer => {
    const bom = sniffBom(bytes);
    if (bom) encoding = bom.encoding;
    onDetect?.({ encoding, bom: bom !== undefined });
    if (encoding !== 'windows-1252') decoder = new TextDecoder(encoding, { fatal: true });
    return bom ? bytes.subarray(bom.length) : bytes;
  };

  return new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      try {
        let bytes = chunk;
        if (head) {
          head = Buffer.concat([head, chunk]);
          if (head.length < 3) return done();
          bytes = start(head);
          head = undefined;
        }
        done(null, convert(bytes, false));
      } catch (err) {
        done(err as Error);
      }
    },
    flush(done: TransformCallback) {
      try {
        const rest = head ? start(head) : Buffer.alloc(0);
        head = undefined;
        const out = convert(rest, true);
        done(null, out.length > 0 ? out : undefined);
      } catch (err) {
        done(err as Error);
      }
    },
  });
}
