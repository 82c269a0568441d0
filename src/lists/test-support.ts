/** Helpers for the lists tests: temporary directories and zips built on the fly. */
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

export async function tempDir(): Promise<{ dir: string; path: (name: string) => string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'mailsure-lists-'));
  return { dir, path: (name) => join(dir, name), cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export type ZipEntrySpec = { name: string; data: string | Buffer | (() => Readable); compress?: boolean } | { dir: string };

export async function writeZip(path: string, entries: ZipEntrySpec[]): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    if ('dir' in entry) zip.addEmptyDirectory(entry.dir);
    else if (typeof entry.data === 'function') zip.addReadStream(entry.data(), entry.name, { compress: entry.compress ?? true });
    else zip.addBuffer(Buffer.from(entry.data), entry.name, { compress: entry.compress ?? true });
  }
  zip.end();
  await pipeline(zip.outputStream as Readable, createWriteStream(path));
}

/** `bytes` zero bytes, produced lazily. */
export function zeros(bytes: number, chunk = 1024 * 1024): Readable {
  let left = bytes;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(chunk, left);
      left -= n;
      this.push(Buffer.alloc(n, 0x30)); // ASCII '0': still a bomb, and text, so only the caps can stop it
    },
  });
}

/** Rewrites every occurrence of `from` with `to` (same length) in a file, e.g. an entry name. */
export async function patchBytes(path: string, from: string, to: string): Promise<void> {
  if (from.length !== to.length) throw new Error('patch must keep the length');
  const data = await readFile(path);
  let at = data.indexOf(from);
  while (at !== -1) {
    data.write(to, at, 'latin1');
    at = data.indexOf(from, at + to.length);
  }
  await writeFile(path, data);
}

/** Sets the uncompressed size every central-directory entry declares (a lying header). */
export async function patchDeclaredSize(path: string, size: number): Promise<void> {
  const data = await readFile(path);
  let at = data.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  while (at !== -1) {
    data.writeUInt32LE(size, at + 24);
    at = data.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4);
  }
  await writeFile(path, data);
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
