/** A zip's entries read into memory with yauzl: for tests of results files, which are small. */
import yauzl from 'yauzl';

export async function unzipEntries(buffer: Buffer): Promise<{ name: string; content: Buffer }[]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (e, z) => (e ? reject(e) : resolve(z))),
  );
  const entries: { name: string; content: Buffer }[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) =>
      zip.openReadStream(entry, (e, stream) => {
        if (e) return reject(e);
        const parts: Buffer[] = [];
        stream.on('data', (c: Buffer) => parts.push(c));
        stream.on('error', reject);
        stream.on('end', () => {
          entries.push({ name: entry.fileName, content: Buffer.concat(parts) });
          zip.readEntry();
        });
      }),
    );
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return entries;
}

/** The entries as UTF-8 text by name. */
export async function unzip(buffer: Buffer): Promise<Record<string, string>> {
  return Object.fromEntries((await unzipEntries(buffer)).map((e) => [e.name, e.content.toString('utf8')]));
}
