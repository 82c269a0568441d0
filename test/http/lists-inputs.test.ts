/**
 * What a submission's file and parameters do end to end, over HTTP through the app: the 422s of
 * the synchronous checks (undecodable files, zip bombs), and each submit parameter as it shows in
 * the status and in the results zip (decisions §6, docs/lists.md "Submit").
 */
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newPerson } from '../../src/storage/contract/people-fixtures.js';
import { patchDeclaredSize, tempDir, writeZip, zeros } from '../../src/lists/test-support.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { multipart, type Part } from '../helpers/multipart.js';
import { unzip } from '../helpers/unzip.js';
import { peopleBatch } from '../helpers/people.js';

let t: TestApp;
let key: string;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  t = await makeTestApp({ env: { MAILSURE_LIST_MAX_MB: '1' } });
  key = (await t.key('acme', { services: 'verification,lists' })).key;
  tmp = await tempDir();
});
afterEach(async () => {
  await t.close();
  await tmp.cleanup();
});

const submit = (query: string, parts: Part[], k = key) => {
  const { payload, headers } = multipart(parts);
  return t.app.inject({ method: 'POST', url: `/v5/list${query}`, headers: { ...headers, api_key: k }, payload });
};
const file = (filename: string, content: string | Buffer): Part[] => [{ name: 'file', filename, content }];
const get = (path: string, k = key) => t.app.inject({ url: path, headers: { api_key: k } });

/** Submits, waits for the list, and answers its status body and the results zip's files. */
async function run(query: string, parts: Part[], k = key) {
  const res = await submit(query, parts, k);
  expect(res.statusCode).toBe(202);
  const { list_id } = res.json() as { list_id: number };
  await t.lists.idle();
  const status = (await get(`/v5/list/${list_id}`, k)).json();
  expect(status.status).toBe('Results');
  const results = await get(`/v5/list/${list_id}/results`, k);
  expect(results.statusCode).toBe(200);
  return { list_id, status, disposition: results.headers['content-disposition'] as string, files: await unzip(results.rawPayload) };
}

const lines = (text: string) => text.replace(/\r?\n$/, '').split(/\r?\n/);

describe('422 for files that cannot be read', () => {
  it.each([
    ['NUL bytes (binary)', Buffer.from('email\nann@example.com\n\0\0\x01\x02\0', 'latin1'), 'The file is not a text file'],
    [
      'a UTF-16 byte-order mark over a lone surrogate',
      Buffer.from([0xff, 0xfe, 0x61, 0x00, 0x00, 0xd8, 0x0a, 0x00]),
      'The file is not valid UTF-16 text',
    ],
  ])('%s', async (_, content, message) => {
    const res = await submit('', file('data.csv', content));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error_code: 422, error_msg: message });
    expect((await get('/v5/list')).json().total).toBe(0);
  });

  it('a zip bomb: an entry past the compression-ratio cap (8 MiB of one byte)', async () => {
    const path = tmp.path('bomb.zip');
    await writeZip(path, [{ name: 'bomb.csv', data: () => zeros(8 * 1024 * 1024) }]);
    const body = await readFile(path);
    expect(body.length).toBeLessThan(64 * 1024);
    const res = await submit('', file('bomb.zip', body));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error_code: 422, error_msg: 'The file inside the zip is compressed more than 200:1' });
    expect((await get('/v5/list')).json().total).toBe(0);
  });

  it('a zip bomb: an entry declaring more than the 2 GiB cap', async () => {
    const path = tmp.path('huge.zip');
    await writeZip(path, [{ name: 'huge.csv', data: 'email\nann@example.com\n' }]);
    await patchDeclaredSize(path, 3 * 1024 ** 3);
    const res = await submit('', file('huge.zip', await readFile(path)));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error_code: 422, error_msg: 'The file inside the zip is larger than 2 GiB uncompressed' });
  });
});

/** Tab data with a few commas in its notes, as a CRM exports it, named `.csv`. */
const tsv =
  'email\tname\tnotes\nann@example.com\tAnn\tcall after 5, not before\nbob@example.com\tBob\tVIP, pays late\ncy@example.com\tCy\tnew\n';

describe('submit parameters, end to end', () => {
  it('email_column picks the column verified', async () => {
    const csv = 'work,home\nann@example.com,ann@home@example.com\n';
    const second = await run('?header=true&email_column=2', file('two.csv', csv));
    expect(second.status.services.email_validation.reporting.statuses).toMatchObject({ Invalid: 1, Unknown: 0 });
    expect(lines(second.files[`two-${second.list_id}-Service.csv`]!)[1]!.startsWith('ann@example.com,ann@home@example.com,invalid,')).toBe(
      true,
    );
    const first = await run('?header=true&email_column=1', file('two.csv', csv));
    expect(first.status.services.email_validation.reporting.statuses).toMatchObject({ Invalid: 0, Unknown: 1 });
    expect(lines(first.files[`two-${first.list_id}-Service.csv`]!)[1]).toBe('ann@example.com,ann@home@example.com,unknown,10,,,,');
  });

  it('an email_column without addresses is Invalid, naming it and the address column, and nothing is billed', async () => {
    const csv = 'name,email,phone\nAnn,ann@example.com,555-0100\nBob,bob@example.com,555-0101\n';
    const { list_id } = (await submit('?header=true&email_column=1', file('people.csv', csv))).json() as { list_id: number };
    await t.lists.idle();
    expect((await get(`/v5/list/${list_id}`)).json()).toMatchObject({
      status: 'Invalid',
      error: 'email_column 1 (name) holds no email addresses; column 2 (email) does',
    });
    const keyId = (await t.storage.keys.findByName('acme'))!.id;
    expect((await t.storage.usage.totals(keyId)).list_record ?? 0).toBe(0);
  });

  it('an email_column without addresses does not matter to a name + postal append key', async () => {
    const append = (await t.key('append', { services: 'email_append,lists' })).key;
    const csv = 'first,last,street,city,state,phone\nAnn,Lee,1 Main St,Austin,TX,555-0100\n';
    const { list_id, status, files } = await run('?header=true&email_column=6', file('postal.csv', csv), append);
    expect(status.services.email_append.status).toBe('Completed');
    expect(lines(files[`postal-${list_id}-Service.csv`]!)[1]).toBe('Ann,Lee,1 Main St,Austin,TX,555-0100,,');
  });

  it('delimiter=; reads and writes semicolons; without it the list is Invalid with the hint', async () => {
    const csv = 'email;name\nann@example.com;Ann\nbob@example.com;Bob\n';
    const { list_id, files } = await run('?header=true&delimiter=;', file('semi.csv', csv));
    const out = lines(files[`semi-${list_id}-Service.csv`]!);
    expect(out[0]).toBe('email;name;Validation Status;Validation Code;Domain Type;Role Account;Duplicate;Valid Email');
    expect(out[1]).toBe('ann@example.com;Ann;unknown;10;;;;');

    const plain = (await submit('?header=true', file('semi.csv', csv))).json() as { list_id: number };
    await t.lists.idle();
    expect((await get(`/v5/list/${plain.list_id}`)).json()).toMatchObject({
      status: 'Invalid',
      error: 'The file seems to be delimited by semicolon, not comma; set the delimiter parameter',
    });
  });

  it('tab data in a .csv whose notes hold commas is Invalid with the hint, and nothing is billed', async () => {
    const refused = (await submit('?header=true', file('export.csv', tsv))).json() as { list_id: number };
    await t.lists.idle();
    expect((await get(`/v5/list/${refused.list_id}`)).json()).toMatchObject({
      status: 'Invalid',
      error: 'The file seems to be delimited by tab, not comma; set the delimiter parameter',
    });
    const keyId = (await t.storage.keys.findByName('acme'))!.id;
    expect((await t.storage.usage.totals(keyId)).list_record ?? 0).toBe(0);
  });

  it('an explicit delimiter=, is respected, whatever the file looks like', async () => {
    const { list_id, status, files } = await run('?header=true&delimiter=,', file('export.csv', tsv));
    expect(status.records).toBe(3);
    const out = lines(files[`export-${list_id}-Service.csv`]!);
    expect(out[1]!.startsWith('ann@example.com\tAnn\tcall after 5, not before,invalid,')).toBe(true);
    // Even a file with no comma at all (which the default would refuse).
    const pure = await run('?header=true&delimiter=,', file('pure.csv', 'email\tname\nann@example.com\tAnn\n'));
    expect(lines(pure.files[`pure-${pure.list_id}-Service.csv`]!)[1]!.startsWith('ann@example.com\tAnn,invalid,')).toBe(true);
  });

  it('a comma CSV whose cells hold tabs is read as comma', async () => {
    const csv = 'email,name,notes\nann@example.com,Ann,"a\tb"\nbob@example.com,Bob,c\td\n';
    const { list_id, files } = await run('?header=true', file('tabs-inside.csv', csv));
    expect(lines(files[`tabs-inside-${list_id}-Service.csv`]!).slice(1)).toEqual([
      'ann@example.com,Ann,a\tb,unknown,10,,,,',
      'bob@example.com,Bob,c\td,unknown,10,,,,',
    ]);
  });

  it('delimiter=tab on a .csv', async () => {
    const { list_id, files } = await run('?header=true&delimiter=tab', file('tabs.csv', 'email\tname\nann@example.com\tAnn\n'));
    const out = lines(files[`tabs-${list_id}-Service.csv`]!);
    expect(out[0]).toBe('email\tname\tValidation Status\tValidation Code\tDomain Type\tRole Account\tDuplicate\tValid Email');
    expect(out[1]).toBe('ann@example.com\tAnn\tunknown\t10\t\t\t\t');
  });

  it('a .txt upload is tab delimited by default, and its results are a .txt', async () => {
    const { list_id, status, files, disposition } = await run('?header=true', file('people.txt', 'email\tname\nann@example.com\tAnn\n'));
    expect(status).toMatchObject({ name: 'people.txt', records: 1 });
    expect(disposition).toContain(`filename="people-${list_id}-Service.zip"`);
    expect(Object.keys(files)).toEqual([`people-${list_id}-Service.txt`]);
    expect(lines(files[`people-${list_id}-Service.txt`]!)[1]).toBe('ann@example.com\tAnn\tunknown\t10\t\t\t\t');
  });

  it('a .zip holding one file is read by the inner file’s extension', async () => {
    const path = tmp.path('upload.zip');
    await writeZip(path, [{ name: 'inner.csv', data: 'email,name\nann@example.com,Ann\nnot-an-address,Bob\n' }]);
    const { list_id, status, files, disposition } = await run('?header=true', file('upload.zip', await readFile(path)));
    expect(status).toMatchObject({ name: 'upload.zip', records: 2 });
    expect(disposition).toContain(`filename="upload-${list_id}-Service.zip"`);
    expect(Object.keys(files)).toEqual([`upload-${list_id}-Service.csv`]);
    const out = lines(files[`upload-${list_id}-Service.csv`]!);
    expect(out[1]).toBe('ann@example.com,Ann,unknown,10,,,,');
    expect(out[2]!.startsWith('not-an-address,Bob,invalid,')).toBe(true);
  });

  it('name: myfile.csv when neither the parameter nor the part gives an accepted one; the parameter wins', async () => {
    const unnamed = await run('', file('export.dat', 'ann@example.com\n'));
    expect(unnamed.status.name).toBe('myfile.csv');
    expect(unnamed.disposition).toContain(`filename="myfile-${unnamed.list_id}-Service.zip"`);
    expect(lines(unnamed.files[`myfile-${unnamed.list_id}-Service.csv`]!)).toEqual([
      'Email,Validation Status,Validation Code,Domain Type,Role Account,Duplicate,Valid Email',
      'ann@example.com,unknown,10,,,,',
    ]);
    const named = await run('?name=clients.csv', file('export.dat', 'ann@example.com\n'));
    expect(named.status.name).toBe('clients.csv');
  });

  it('fields limits the enrichment columns and report', async () => {
    await t.storage.people.upsert(
      peopleBatch([
        newPerson('P1', {
          firstName: 'Katherine',
          address: '123 N Main St',
          fields: { age: '35-44', gender: 'Female' },
          interests: ['books'],
          emails: ['kate@example.com'],
        }),
      ]),
    );
    const full = (await t.key('full', { services: 'verification,enrichment,lists', fields: 'age,gender,interests' })).key;
    const csv = 'email\nkate@example.com\nnobody@example.com\n';
    const some = await run('?header=true&fields=gender', file('people.csv', csv), full);
    expect(some.status.services.email_intelligence.reporting).toEqual({ gender: { 'Total Count': 1 } });
    const out = lines(some.files[`people-${some.list_id}-Service.csv`]!);
    expect(out[0]!.endsWith(',Valid Email,gender')).toBe(true);
    expect(out[1]!.endsWith(',Female')).toBe(true);
    expect(out[2]!.endsWith(',')).toBe(true);
    const all = await run('?header=true', file('people.csv', csv), full);
    expect(lines(all.files[`people-${all.list_id}-Service.csv`]!)[0]!.endsWith(',Valid Email,age,gender,interests')).toBe(true);
  });

  it('a corrected row carries the fixed address in Valid Email (key with corrections, syntax depth)', async () => {
    const fixing = (await t.key('fix', { services: 'verification,corrections,lists' })).key;
    const { list_id, status, files } = await run(
      '?header=true',
      file('typos.csv', 'email\njohnsmith@gmail..com\nann@example.com\n'),
      fixing,
    );
    expect(status.services.email_validation.reporting.statuses).toMatchObject({ Corrected: 1, Unknown: 1, Invalid: 0 });
    const out = lines(files[`typos-${list_id}-Service.csv`]!);
    const [address, validation, , , , , validEmail] = out[1]!.split(',');
    expect([address, validation, validEmail]).toEqual(['johnsmith@gmail..com', 'corrected', 'johnsmith@gmail.com']);
    expect(out[2]).toBe('ann@example.com,unknown,10,,,,');
    // The same file under a key without corrections: the typo is invalid, no fix offered.
    const plain = await run('?header=true', file('typos.csv', 'email\njohnsmith@gmail..com\n'));
    expect(lines(plain.files[`typos-${plain.list_id}-Service.csv`]!)[1]!.split(',')[1]).toBe('invalid');
    expect(lines(plain.files[`typos-${plain.list_id}-Service.csv`]!)[1]!.split(',')[6]).toBe('');
  });
});
