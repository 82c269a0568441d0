/** The one file of a results zip, extracted beside it (yauzl: streamed, entry names checked). */
import { createWriteStream } from 'node:fs';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

export async function unzipSingle(zipPath: string, directory: string, mode: number): Promise<string> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(zipPath, { lazyEntries: true }, (e, z) => (e ? reject(e) : resolve(z))),
  );
  try {
    const entry = await new Promise<yauzl.Entry>((resolve, reject) => {
      zip.once('entry', resolve);
      zip.once('end', () => reject(new Error('the zip is empty')));
      zip.once('error', reject);
      zip.readEntry();
    });
    // Never outside the directory, whatever the entry calls itself.
    const target = join(directory, basename(entry.fileName));
    const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
      zip.openReadStream(entry, (e, s) => (e ? reject(e) : resolve(s))),
    );
    await pipeline(stream, createWriteStream(target, { mode }));
    return target;
  } finally {
    zip.close();
  }
}
