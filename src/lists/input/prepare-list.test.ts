import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, tempDir, writeZip } from '../test-support.js';
import type { ListFormat } from './list-name.js';
import { listRecords, prepareList, type PrepareOptions } from './prepare-list.js';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let n = 0;

beforeAll(async () => {
  tmp = await tempDir();
});
afterAll(async () => {
  await tmp.cleanup();
});

async function prepare(content: string | Buffer, options: Partial<PrepareOptions> & { format?: ListFormat } = {}) {
  const path = tmp.path(`p${++n}`);
  await writeFile(path, content);
  return { path, result: await prepareList({ path, format: 'csv', header: false, ...options }) };
}

describe('prepareList', () => {
  it('lays out a headed CSV', async () => {
    const { path, result } = await prepare('First Name,E-mail,Zip\nAnn,ann@example.com,12345\n\nBob,bob@example.com\n', { header: true });
    expect(result).toEqual({
      ok: true,
      value: {
        extension: 'csv',
        zipped: false,
        delimiter: ',',
        encoding: 'utf-8',
        detected: { encoding: 'utf-8', bom: false },
        header: ['First Name', 'E-mail', 'Zip'],
        headerOverruled: false,
        records: 2,
        columnCount: 3,
        emailColumn: 1,
        roles: { first: 0, email: 1, zip: 2 },
        outputBom: false,
        splitter: true,
      },
    });
    if (!result.ok) return;
    expect(await collect(listRecords(path, 'csv', result.value))).toEqual([
      { index: 0, cells: ['Ann', 'ann@example.com', '12345'] },
      { index: 1, cells: ['Bob', 'bob@example.com'] },
    ]);
  });

  it('takes an "email" first row as the header even with header=false', async () => {
    const { result } = await prepare('email\r\na@b.com\r\nc@d.com\r\n');
    expect(result).toMatchObject({ ok: true, value: { header: ['email'], headerOverruled: true, records: 2, emailColumn: 0 } });
  });

  it('reads a zip with its inner extension deciding the delimiter', async () => {
    const path = tmp.path(`z${++n}`);
    await writeZip(path, [{ name: 'in.txt', data: 'email\tname\na@b.com\tAnn\n' }]);
    const result = await prepareList({ path, format: 'zip', header: true });
    expect(result).toMatchObject({ ok: true, value: { extension: 'txt', zipped: true, delimiter: '\t', emailColumn: 0, records: 1 } });
    if (result.ok) expect(await collect(listRecords(path, 'zip', result.value))).toEqual([{ index: 0, cells: ['a@b.com', 'Ann'] }]);
  });

  it('falls back to Windows-1252 when the file is not UTF-8, and re-reads it the same way', async () => {
    const { path, result } = await prepare(Buffer.from('email,name\na@b.com,Jos\xe9\n', 'latin1'), { header: true });
    expect(result).toMatchObject({ ok: true, value: { encoding: 'windows-1252', outputBom: true } });
    if (result.ok) expect(await collect(listRecords(path, 'csv', result.value))).toEqual([{ index: 0, cells: ['a@b.com', 'José'] }]);
  });

  it('reads UTF-16 with a byte-order mark', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('email\tname\r\nzoë@exemple.fr\tZoë\r\n', 'utf16le')]);
    const { path, result } = await prepare(bytes, { format: 'txt', header: true });
    expect(result).toMatchObject({ ok: true, value: { detected: { encoding: 'utf-16le', bom: true }, outputBom: true, records: 1 } });
    if (result.ok) expect(await collect(listRecords(path, 'txt', result.value))).toEqual([{ index: 0, cells: ['zoë@exemple.fr', 'Zoë'] }]);
  });

  it.each([
    ['email\tname\na@b.com\tAnn\nc@d.com\tBob\n', {}, 'The file seems to be delimited by tab, not comma; set the delimiter parameter'],
    ['email;name\na@b.com;Ann\n', {}, 'The file seems to be delimited by semicolon, not comma; set the delimiter parameter'],
    [
      'email\tnotes\na@b.com\tlate, often\nc@d.com\tok\n',
      {},
      'The file seems to be delimited by tab, not comma; set the delimiter parameter',
    ],
    [
      'email,name\na@b.com,Ann\n',
      { format: 'txt' as const },
      'The file seems to be delimited by comma, not tab; set the delimiter parameter',
    ],
    [
      'email,Email Address\na@b.com,c@d.com\n',
      { header: true },
      'Ambiguous email columns: 1 (email), 2 (Email Address); choose one with email_column',
    ],
    ['a@b.com,Ann,c@d.com\n', {}, 'Ambiguous email columns: 1, 3; choose one with email_column'],
    ['Ann,Smith\nBob,Jones\n', {}, 'No email column found'],
    ['email,name\na@b.com,Ann\n', { emailColumn: 5 }, 'email_column is 5 but the file has 2 columns'],
    ['email\n\n\n', {}, 'The list has no records'],
    ['email\na@b.com\n"c@d.com\n', {}, 'Malformed CSV: the quote opened on line 3 is never closed'],
  ])('ends %j Invalid', async (content, options, reason) => {
    expect((await prepare(content, options)).result).toEqual({ ok: false, reason });
  });

  it('reads with a delimiter the caller gave, without second-guessing it', async () => {
    const { result } = await prepare('email\tname\na@b.com\tAnn\n', { delimiter: ',', header: true });
    expect(result).toMatchObject({ ok: true, value: { delimiter: ',', columnCount: 1, records: 1 } });
  });

  it('refuses a huge single line at the default record limit', async () => {
    const { result } = await prepare(`email\n${'a'.repeat(3 * 1024 * 1024)}@example.com`);
    expect(result).toEqual({ ok: false, reason: 'Malformed CSV: the record on line 2 is longer than 1,048,576 characters' });
  });

  it('reads a record too long for csv-splitter with csv-parse, here and in later passes', async () => {
    const long = `${'a'.repeat(500_000)}@example.com`;
    const { path, result } = await prepare(`email,note\n${long},x\nb@example.com,"y"\n`);
    expect(result).toMatchObject({ ok: true, value: { records: 2, splitter: false } });
    if (!result.ok) return;
    expect(await collect(listRecords(path, 'csv', result.value))).toEqual([
      { index: 0, cells: [long, 'x'] },
      { index: 1, cells: ['b@example.com', 'y'] },
    ]);
  });

  it('accepts a name+postal list without an email column', async () => {
    const { result } = await prepare('first,last,street,city,state\nAnn,Lee,1 Main St,Austin,TX\n', { header: true });
    expect(result).toMatchObject({
      ok: true,
      value: { emailColumn: undefined, roles: { first: 0, last: 1, street: 2, city: 3, state: 4 } },
    });
  });

  it('counts to the record limit and no further', async () => {
    const body = Array.from({ length: 5 }, (_, i) => `u${i}@example.com`).join('\n');
    expect((await prepare(`email\n${body}\n`, { maxRecords: 5 })).result).toMatchObject({ ok: true, value: { records: 5 } });
    expect((await prepare(`email\n${body}\nx@y.z\n`, { maxRecords: 5 })).result).toEqual({
      ok: false,
      reason: 'The list has more than 5 records',
    });
  });

  it('says "1,000,000" at the default limit', async () => {
    const { tooManyRecords } = await import('./scan-list.js');
    expect(tooManyRecords(1_000_000)).toBe('The list has more than 1,000,000 records');
  });

  it('fails an unreadable zip the same way as at submit', async () => {
    const path = tmp.path(`z${++n}`);
    await writeZip(path, [
      { name: 'a.csv', data: 'a@b.com' },
      { name: 'b.csv', data: 'c@d.com' },
    ]);
    expect(await prepareList({ path, format: 'zip', header: false })).toEqual({
      ok: false,
      reason: 'The zip must contain exactly one file (found 2)',
    });
  });
});
