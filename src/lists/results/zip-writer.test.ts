import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { tempDir } from '../test-support.js';
import { zipOneFile } from './zip-writer.js';

let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  tmp = await tempDir();
});
afterAll(async () => {
  await tmp.cleanup();
});

interface Read {
  entry: yauzl.Entry;
  content: Buffer;
}

async function readZip(path: string): Promise<Read[]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, validateEntrySizes: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  const out: Read[] = [];
  zip.readEntry();
  for (;;) {
    const [entry] = (await Promise.race([once(zip, 'entry'), once(zip, 'end').then(() => [undefined])])) as [yauzl.Entry | undefined];
    if (!entry) break;
    const stream = await new Promise<Readable>((resolve, reject) =>
      zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))),
    );
    const parts: Buffer[] = [];
    for await (const part of stream) parts.push(part as Buffer);
    out.push({ entry, content: Buffer.concat(parts) });
    zip.readEntry();
  }
  zip.close();
  return out;
}

const fields = ({ entry }: Read) => ({
  fileName: entry.fileName,
  versionMadeBy: entry.versionMadeBy,
  versionNeededToExtract: entry.versionNeededToExtract,
  generalPurposeBitFlag: entry.generalPurposeBitFlag,
  compressionMethod: entry.compressionMethod,
  crc32: entry.crc32,
  uncompressedSize: entry.uncompressedSize,
  externalFileAttributes: entry.externalFileAttributes,
  extraFields: entry.extraFields.map((f) => f.id),
  lastModFileTime: entry.lastModFileTime,
  lastModFileDate: entry.lastModFileDate,
});

describe('zipOneFile', () => {
  it('writes the zip yazl writes for a streamed entry, with a correct CRC-32', async () => {
    const content = Buffer.from('Email,Note\nä@ö.de,"x, y"\n'.repeat(5_000));
    const mtime = new Date(2024, 4, 17, 13, 45, 30);

    const ours = tmp.path('ours.zip');
    const zip = zipOneFile('liste-1-Service.csv', { level: 3, mtime });
    const written = pipeline(zip.output, createWriteStream(ours));
    for (let i = 0; i < content.length; i += 7_000) zip.write(content.subarray(i, i + 7_000));
    zip.end();
    await written;

    const theirs = tmp.path('theirs.zip');
    const y = new yazl.ZipFile();
    y.addReadStream((await import('node:stream')).Readable.from([content]), 'liste-1-Service.csv', { mtime, compressionLevel: 3 });
    y.end();
    await pipeline(y.outputStream as Readable, createWriteStream(theirs));

    const [a] = await readZip(ours);
    const [b] = await readZip(theirs);
    expect(a!.content.equals(content)).toBe(true);
    expect(a!.entry.crc32).toBe(crc32(content));
    expect(fields(a!)).toEqual(fields(b!));
    // Same deflate level and input: the same bytes, header and all.
    expect((await readFile(ours)).equals(await readFile(theirs))).toBe(true);
  });

  it('zips an empty file', async () => {
    const path = tmp.path('empty.zip');
    const zip = zipOneFile('e.txt', { level: 3 });
    const written = pipeline(zip.output, createWriteStream(path));
    zip.end();
    await written;
    const [read] = await readZip(path);
    expect(read!.content.length).toBe(0);
    expect(read!.entry.crc32).toBe(0);
  });
});
