/**
 * A zip archive of one file, written as the file's bytes arrive: the local header, the deflated
 * data, then a data descriptor (CRC-32 and sizes, known only at the end), the central directory
 * and its end record, laid out as yazl lays out a streamed entry (UTF-8 name, Unix mode 0664,
 * Info-ZIP timestamp). yazl computes the CRC-32 in JavaScript, which on a million-row results
 * file cost as much as deflating it; zlib.crc32 is native. Files of 4 GiB or more (zip64) are
 * refused: a list's caps keep its results far below that.
 */
import { crc32, createDeflateRaw } from 'node:zlib';
import { Readable } from 'node:stream';

const FILE_NAME_IS_UTF8 = 1 << 11;
const SIZES_IN_DESCRIPTOR = 1 << 3;
const FLAGS = FILE_NAME_IS_UTF8 | SIZES_IN_DESCRIPTOR;
const VERSION_NEEDED = 20;
// 3 = Unix, 63 = zip specification 6.3
const VERSION_MADE_BY = (3 << 8) | 63;
const DEFLATE = 8;
const MODE = 0o100664;
const LIMIT = 0xfffffffe;

export interface ZipWriter {
  /** The zip's bytes, to pipe to a file. */
  output: Readable;
  /** Adds file bytes; false when the caller should wait for 'drain' on `input`. */
  write(bytes: Buffer): boolean;
  /** What 'drain' is emitted on. */
  input: NodeJS.EventEmitter;
  end(): void;
  destroy(error?: Error): void;
}

function dosDateTime(date: Date): { time: number; date: number } {
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: (((date.getFullYear() - 1980) & 0x7f) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

export function zipOneFile(name: string, options: { level: number; mtime?: Date }): ZipWriter {
  const fileName = Buffer.from(name, 'utf8');
  const mtime = options.mtime ?? new Date();
  const dos = dosDateTime(mtime);
  const deflate = createDeflateRaw({ level: options.level });
  let crc = 0;
  let size = 0;

  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(VERSION_NEEDED, 4);
  local.writeUInt16LE(FLAGS, 6);
  local.writeUInt16LE(DEFLATE, 8);
  local.writeUInt16LE(dos.time, 10);
  local.writeUInt16LE(dos.date, 12);
  // CRC-32 and sizes stay 0 here: they follow the data, in the descriptor.
  local.writeUInt16LE(fileName.length, 26);

  function trailer(compressed: number): Buffer {
    if (size > LIMIT || compressed > LIMIT) throw new Error('the results file is too large for a zip without zip64');
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(size, 12);

    const timestamp = Buffer.alloc(9);
    timestamp.writeUInt16LE(0x5455, 0);
    timestamp.writeUInt16LE(5, 2);
    // mtime and atime flags, as Info-ZIP sets them (the central copy never holds the atime).
    timestamp.writeUInt8(3, 4);
    timestamp.writeInt32LE(Math.max(-0x80000000, Math.min(0x7fffffff, Math.floor(mtime.getTime() / 1000))), 5);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(VERSION_MADE_BY, 4);
    central.writeUInt16LE(VERSION_NEEDED, 6);
    central.writeUInt16LE(FLAGS, 8);
    central.writeUInt16LE(DEFLATE, 10);
    central.writeUInt16LE(dos.time, 12);
    central.writeUInt16LE(dos.date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt16LE(timestamp.length, 30);
    // comment length, disk number, internal attributes: 0
    central.writeUInt32LE((MODE << 16) >>> 0, 38);
    // the local header is at offset 0

    const centralOffset = local.length + fileName.length + compressed + descriptor.length;
    const centralSize = central.length + fileName.length + timestamp.length;
    if (centralOffset > LIMIT) throw new Error('the results file is too large for a zip without zip64');
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 8);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(centralSize, 12);
    end.writeUInt32LE(centralOffset, 16);
    return Buffer.concat([descriptor, central, fileName, timestamp, end]);
  }

  async function* bytes(): AsyncGenerator<Buffer> {
    yield Buffer.concat([local, fileName]);
    let compressed = 0;
    for await (const chunk of deflate as AsyncIterable<Buffer>) {
      compressed += chunk.length;
      yield chunk;
    }
    yield trailer(compressed);
  }

  const output = Readable.from(bytes(), { objectMode: false });
  return {
    output,
    input: deflate,
    write(data) {
      crc = crc32(data, crc);
      size += data.length;
      return deflate.write(data);
    },
    end() {
      deflate.end();
    },
    destroy(error) {
      deflate.destroy(error);
      output.destroy(error);
    },
  };
}
