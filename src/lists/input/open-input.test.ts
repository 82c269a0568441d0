import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, patchBytes, patchDeclaredSize, tempDir, writeZip, zeros } from '../test-support.js';
import { InputError } from './input-error.js';
import { inspectInput, openInput } from './open-input.js';
import { DEFAULT_ZIP_LIMITS, sizeGuard } from './zip-input.js';
import { readRows } from './read-records.js';
import { until } from '../../../test/helpers/until.js';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let n = 0;
const file = () => tmp.path(`f${++n}`);

beforeAll(async () => {
  tmp = await tempDir();
});
afterAll(async () => {
  await tmp.cleanup();
});

async function zipOf(entries: Parameters<typeof writeZip>[1]): Promise<string> {
  const path = file();
  await writeZip(path, entries);
  return path;
}

async function textOf(path: string, format: 'csv' | 'txt' | 'zip' = 'zip') {
  const opened = await openInput(path, format);
  if (!opened.ok) throw new Error(opened.reason);
  const chunks = await collect(opened.value.stream as AsyncIterable<Buffer>);
  return { ...opened.value, text: Buffer.concat(chunks).toString('utf8') };
}

async function streamFailure(path: string, limits: Parameters<typeof openInput>[2]): Promise<string> {
  const opened = await openInput(path, 'zip', limits);
  if (!opened.ok) return `open: ${opened.reason}`;
  try {
    await collect(readRows(opened.value.stream, { delimiter: ',' }));
  } catch (err) {
    if (err instanceof InputError) return err.reason;
    throw err;
  }
  return 'no failure';
}

describe('openInput, plain files', () => {
  it('streams a CSV as it is', async () => {
    const path = file();
    await writeFile(path, 'email\na@b.com\n');
    expect(await textOf(path, 'csv')).toMatchObject({ text: 'email\na@b.com\n', extension: 'csv', zipped: false });
  });

  it('refuses an empty file and a .zip name on something else', async () => {
    const empty = file();
    await writeFile(empty, '');
    expect(await openInput(empty, 'csv')).toEqual({ ok: false, reason: 'The file is empty' });
    const text = file();
    await writeFile(text, 'a@b.com\n');
    expect(await openInput(text, 'zip')).toEqual({ ok: false, reason: 'The file is not a valid zip archive' });
  });

  it('recognises a zip by its content whatever its name', async () => {
    const path = await zipOf([{ name: 'inner.txt', data: 'a@b.com\n' }]);
    expect(await textOf(path, 'csv')).toMatchObject({ text: 'a@b.com\n', extension: 'txt', zipped: true, innerName: 'inner.txt' });
  });
});

describe('openInput, zips', () => {
  it('opens the single file, ignoring directories and Mac/Windows litter', async () => {
    const path = await zipOf([
      { dir: 'lists' },
      { name: 'lists/clients.CSV', data: 'email\na@b.com\n' },
      { name: '__MACOSX/lists/._clients.CSV', data: 'junk' },
      { name: 'lists/.DS_Store', data: 'junk' },
      { name: 'Thumbs.db', data: 'junk' },
    ]);
    expect(await textOf(path)).toMatchObject({ text: 'email\na@b.com\n', extension: 'csv', innerName: 'lists/clients.CSV' });
  });

  it('reads a stored (uncompressed) entry', async () => {
    const path = await zipOf([{ name: 'a.txt', data: 'x@y.z\n', compress: false }]);
    expect((await textOf(path)).text).toBe('x@y.z\n');
  });

  it.each([
    [
      [
        { name: 'a.csv', data: 'a@b.com' },
        { name: 'b.csv', data: 'c@d.com' },
      ],
      'The zip must contain exactly one file (found 2)',
    ],
    [[{ dir: 'empty' }], 'The zip must contain exactly one file (found 0)'],
    [[{ name: 'list.xlsx', data: 'PK' }], 'The file inside the zip must be a .csv or .txt file (found "list.xlsx")'],
    [[{ name: 'list.csv', data: '' }], 'The file is empty'],
    [
      [
        { name: '[Content_Types].xml', data: '<x/>' },
        { name: 'xl/workbook.xml', data: '<x/>' },
      ],
      'Spreadsheet workbooks are not accepted; save the sheet as .csv or .txt',
    ],
  ])('refuses %j', async (entries, reason) => {
    expect(await openInput(await zipOf(entries as Parameters<typeof writeZip>[1]), 'zip')).toEqual({ ok: false, reason });
  });

  it('refuses an empty archive', async () => {
    const path = await zipOf([]);
    expect(await openInput(path, 'zip')).toEqual({ ok: false, reason: 'The zip must contain exactly one file (found 0)' });
  });

  it('stops counting entries at the limit', async () => {
    const path = await zipOf(Array.from({ length: 30 }, (_, i) => ({ name: `f${i}.csv`, data: 'a@b.com' })));
    expect(await openInput(path, 'zip', { maxEntries: 10 })).toEqual({
      ok: false,
      reason: 'The zip must contain exactly one file (found more than 10)',
    });
  });

  it('refuses path traversal and absolute names', async () => {
    const traversal = await zipOf([{ name: 'aa/evil.csv', data: 'a@b.com\n' }]);
    await patchBytes(traversal, 'aa/evil.csv', '../evil.csv');
    expect(await openInput(traversal, 'zip')).toEqual({ ok: false, reason: 'The zip contains an unsafe file name ("../evil.csv")' });
    const absolute = await zipOf([{ name: 'x/etc/list.csv', data: 'a@b.com\n' }]);
    await patchBytes(absolute, 'x/etc/list.csv', '/x/etc/lis.csv');
    expect(await openInput(absolute, 'zip')).toEqual({ ok: false, reason: 'The zip contains an unsafe file name ("/x/etc/lis.csv")' });
  });

  it('refuses a truncated or garbled archive', async () => {
    const path = file();
    await writeFile(path, Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100, 7)]));
    expect(await openInput(path, 'zip')).toEqual({ ok: false, reason: 'The file is not a valid zip archive' });
  });

  describe('zip bombs', () => {
    const MiB = 1024 * 1024;

    it('refuses by the declared ratio before inflating anything', async () => {
      const path = await zipOf([{ name: 'bomb.csv', data: () => zeros(64 * MiB) }]);
      expect(await openInput(path, 'zip')).toEqual({ ok: false, reason: 'The file inside the zip is compressed more than 200:1' });
    });

    it('refuses by the declared size', async () => {
      const path = await zipOf([{ name: 'big.csv', data: () => zeros(3 * MiB) }]);
      expect(await openInput(path, 'zip', { maxUncompressedBytes: 2 * MiB, maxCompressionRatio: 10_000 })).toEqual({
        ok: false,
        reason: 'The file inside the zip is larger than 2 MiB uncompressed',
      });
    });

    it('refuses while streaming when the header lies about the size', async () => {
      const path = await zipOf([{ name: 'liar.csv', data: () => zeros(64 * MiB) }]);
      await patchDeclaredSize(path, 1000);
      expect(await streamFailure(path, {})).toBe('The zip archive is corrupt');
    });

    it('the streaming guard holds on its own, whatever the header said', async () => {
      const run = async (bytes: number, compressed: number, limits: Partial<typeof DEFAULT_ZIP_LIMITS>) => {
        try {
          await collect(zeros(bytes, 64 * 1024).pipe(sizeGuard(compressed, { ...DEFAULT_ZIP_LIMITS, ...limits })));
          return 'no failure';
        } catch (err) {
          return err instanceof InputError ? err.reason : String(err);
        }
      };
      expect(await run(3 * MiB, 3 * MiB, { maxUncompressedBytes: 2 * MiB })).toBe(
        'The file inside the zip is larger than 2 MiB uncompressed',
      );
      expect(await run(3 * MiB, 1000, {})).toBe('The file inside the zip is compressed more than 200:1');
      expect(await run(512 * 1024, 1000, {})).toBe('no failure'); // under the ratio floor
      expect(await run(3 * MiB, 3 * MiB, {})).toBe('no failure');
    });
  });

  it.skipIf(!existsSync('/proc/self/fd'))('closes the zip when the reader stops early', async () => {
    const path = await zipOf([
      { name: 'long.csv', data: Array.from({ length: 200_000 }, (_, i) => `${i.toString(36)}@example.com\n`).join('') },
    ]);
    const before = (await readdir('/proc/self/fd')).length;
    for (let i = 0; i < 5; i++) {
      const opened = await openInput(path, 'zip');
      if (!opened.ok) throw new Error(opened.reason);
      for await (const row of readRows(opened.value.stream, { delimiter: ',' })) if (row[0]) break;
    }
    // The streams close their descriptors a turn or two later: waited for, not slept on.
    await until(async () => (await readdir('/proc/self/fd')).length <= before, { what: 'the zip files to be closed', withinMs: 5_000 });
  });
});

describe('inspectInput', () => {
  it('accepts text and reports its container', async () => {
    const path = await zipOf([{ name: 'in.txt', data: 'a@b.com\n' }]);
    expect(await inspectInput(path, 'zip')).toEqual({ ok: true, value: { extension: 'txt', zipped: true, innerName: 'in.txt' } });
  });

  it('refuses blank and binary files', async () => {
    const blank = file();
    await writeFile(blank, '\r\n , ,\n\t\n');
    expect(await inspectInput(blank, 'csv')).toEqual({ ok: false, reason: 'The file is empty' });
    const binary = file();
    await writeFile(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
    expect(await inspectInput(binary, 'csv')).toEqual({ ok: false, reason: 'The file is not a text file' });
  });

  it('accepts Windows-1252 text (decided later, not refused now)', async () => {
    const path = file();
    await writeFile(path, Buffer.from('a@b.com,Jos\xe9\n', 'latin1'));
    expect(await inspectInput(path, 'csv')).toEqual({ ok: true, value: { extension: 'csv', zipped: false } });
  });
});
