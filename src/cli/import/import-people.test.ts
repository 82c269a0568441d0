import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { md5Hex, sha1Hex } from '../../people/email-hash.js';
import { lookupByNameAndAddress } from '../../people/people-plan.js';
import type { Storage } from '../../storage/interfaces.js';
import { openMemoryStorage, openStorage } from '../../storage/open-storage.js';
import { importPeople } from './import-people.js';

const dir = mkdtempSync(join(tmpdir(), 'mailsure-people-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const ndjson = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

async function run(name: string, text: string | Buffer, storage: Storage = openMemoryStorage(), stream?: NodeJS.WriteStream) {
  const path = file(name, text);
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
  try {
    const result = await importPeople(storage, path, stream ? { stream } : {});
    return { storage, result, out: out.join(''), lines: out.join('').trimEnd().split('\n') };
  } finally {
    spy.mockRestore();
  }
}

const jane = {
  email: 'jane@example.com',
  first_name: 'Jane',
  last_name: 'Doe',
  address: '12 Main St',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
};

describe('importPeople', () => {
  it('loads NDJSON, reporting each bad line with its reasons', async () => {
    const text = [
      JSON.stringify({ ...jane, age: '35-44', interests: ['pets'] }),
      '',
      'not json',
      '[1,2]',
      JSON.stringify({ email: 'bob@example.com', age: '99', gender: 'male' }),
      JSON.stringify({ emails: ['carol@example.com', 'c2@example.com'], household_income: '50k-75k' }),
      JSON.stringify({ first_name: 'No', last_name: 'Contact' }),
    ].join('\n');
    const { result, lines, storage } = await run('mixed.ndjson', text);
    expect(result).toMatchObject({ status: 'finished', loaded: 2, committed: 2, inserted: 2, updated: 0, rejected: 4 });
    expect(lines).toEqual([
      'people from NDJSON: 2 loaded (2 new, 0 updated), 4 rejected',
      '  line 3: not valid JSON',
      '  line 4: not a JSON object',
      '  line 5: age: "99" is not one of 18-20, 21-24, 25-34, 35-44, 45-54, 55-64, 65+; gender: "male" is not an allowed value (did you mean "Male"?)',
      '  line 7: needs an email, or first_name, last_name, address and zip',
    ]);
    expect(await storage.people.findByEmail('c2@example.com')).toMatchObject({ emails: ['carol@example.com', 'c2@example.com'] });
  });

  it('loads CSV, with list cells and ragged rows reported', async () => {
    const csv = [
      'Email,First_Name,last_name,address,city,state,zip,interests,rfm_avg_dollars',
      'jane@example.com,Jane,Doe,12 Main St,Springfield,il,62701-1234,"pets|travel",120',
      'bob@example.com,Bob,Roe,1 Elm St,Austin,TX,78701',
      ',Ann,Lee,"5 Oak Ave, Apt 2",Reno,NV,89501,,',
      'x@example.com,X,Y,1 A St,Reno,NV,89501,,12,extra',
      'bad@,Z,Z,1 A St,Reno,NV,ABCDE,,',
    ].join('\n');
    const { result, lines, storage } = await run('people.csv', csv);
    expect(result).toMatchObject({ status: 'finished', loaded: 2, inserted: 2, rejected: 3 });
    expect(lines).toEqual([
      'people from CSV: 2 loaded (2 new, 0 updated), 3 rejected',
      '  line 3: columns length is 9, got 7 on line 3',
      '  line 5: columns length is 9, got 10 on line 5',
      '  line 6: email: "bad@" is not a valid address (nothing after the @ sign); zip: "ABCDE" is not a ZIP code (12345 or 12345-6789)',
    ]);
    expect(await storage.people.findByEmail('jane@example.com')).toMatchObject({
      state: 'IL',
      zip: '62701-1234',
      interests: ['pets', 'travel'],
      fields: { rfm_avg_dollars: 120 },
    });
    const [ann] = await lookupByNameAndAddress(storage.people, {
      firstName: 'ann',
      lastName: 'LEE',
      address: '5 oak ave apt 2',
      zip5: '89501',
    });
    expect(ann).toMatchObject({ address: '5 Oak Ave, Apt 2', emails: [] });
  });

  it('accepts an empty file and a header-only file', async () => {
    expect((await run('empty.ndjson', '')).lines).toEqual(['people from NDJSON: 0 loaded (0 new, 0 updated), 0 rejected']);
    expect((await run('empty.csv', '')).result).toMatchObject({ status: 'finished', loaded: 0, rejected: 0 });
    expect((await run('header.csv', 'email,first_name\n')).result).toMatchObject({ status: 'finished', loaded: 0, rejected: 0 });
  });

  it('updates on re-import instead of duplicating', async () => {
    const storage = openMemoryStorage();
    const records = [jane, { email: 'bob@example.com', person_id: 'B1' }];
    expect((await run('first.ndjson', ndjson(records), storage)).lines[0]).toBe(
      'people from NDJSON: 2 loaded (2 new, 0 updated), 0 rejected',
    );
    const changed = [
      { ...jane, email: 'jane.doe@example.com', age: '25-34' },
      { email: 'bob2@example.com', person_id: 'B1' },
    ];
    expect((await run('second.ndjson', ndjson(changed), storage)).lines[0]).toBe(
      'people from NDJSON: 2 loaded (0 new, 2 updated), 0 rejected',
    );
    expect(await storage.people.count()).toBe(2);
    expect(await storage.people.findByEmail('jane@example.com')).toBeUndefined();
    expect(await storage.people.findByEmail('jane.doe@example.com')).toMatchObject({ fields: { age: '25-34' } });
    expect(await storage.people.findByEmail('bob2@example.com')).toMatchObject({ personKey: 'B1' });
  });

  it('rejects an oversized line by its field and keeps going', async () => {
    const big = 'x'.repeat(100 * 1024);
    const text =
      ndjson([{ ...jane, first_name: big }, { email: 'ok@example.com' }, { email: 'big@example.com', city: big }]) + `{"email":"${big}\n`;
    const { result, lines } = await run('big.ndjson', text);
    expect(result).toMatchObject({ loaded: 1, rejected: 3 });
    expect(lines.slice(1)).toEqual([
      '  line 1: first_name: longer than 100 characters',
      '  line 3: city: longer than 100 characters',
      '  line 4: not valid JSON',
    ]);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(200);
  });

  it('survives hostile input without loading it or polluting prototypes', async () => {
    const garbage = Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 73 + 11) % 256));
    expect((await run('garbage.csv', garbage)).result).toMatchObject({ status: 'finished', loaded: 0 });
    expect((await run('garbage.bin', garbage)).result).toMatchObject({ status: 'finished', loaded: 0 });

    const hostile = [
      '{"email":"a@example.com","__proto__":{"polluted":true}}',
      '{"email":"b@example.com","constructor":{"prototype":{"polluted":true}}}',
      '{"email":"c@example.com","rfm_avg_dollars":1e400,"rfm_online_avg_days":99999999999999999999}',
      '{"email":["d@example.com"],"emails":"e@example.com","first_name":{"$gt":""},"zip":12345,"interests":"pets,hacking"}',
      '{"email":"f@example.com","age":null,"gender":"","interests":[]}',
    ].join('\n');
    const { result, lines } = await run('hostile.ndjson', hostile);
    expect(result).toMatchObject({ loaded: 1, rejected: 4 });
    expect(lines.slice(1)).toEqual([
      '  line 1: __proto__: unknown field',
      '  line 2: constructor: unknown field',
      '  line 3: rfm_online_avg_days: 100000000000000000000 is out of range (0 to 36500); rfm_avg_dollars: Infinity is not a whole number',
      '  line 4: email: a list is not a string; first_name: an object is not text; zip: 12345 is not a ZIP code (12345 or 12345-6789, as a string); interests: "hacking" is not an interest category',
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    const csv = 'email,__proto__,age,age\na@example.com,x,25-34,35-44\n';
    const fromCsv = await run('hostile.csv', csv);
    expect(fromCsv.result).toMatchObject({ loaded: 0, rejected: 1 });
    expect(fromCsv.lines[1]).toBe('  line 2: __proto__: unknown field; age: column appears more than once in the header');
  });

  it('lists the first 1,000 rejected lines and counts the rest', async () => {
    const text = Array.from({ length: 1_500 }, (_, i) => (i === 700 ? JSON.stringify(jane) : `{"email":"bad${i}"}`)).join('\n');
    const { result, lines } = await run('many-bad.ndjson', text);
    expect(result).toMatchObject({ loaded: 1, rejected: 1_499 });
    expect(lines).toHaveLength(1 + 1_000 + 1);
    expect(lines[1]).toBe('  line 1: email: "bad0" is not a valid address (no @ sign)');
    expect(lines.at(-1)).toBe('  … and 499 more rejected lines (only the first 1000 are listed)');
  });

  it('reports a failed batch with what was committed before it', async () => {
    const storage = openMemoryStorage();
    const upsert = storage.people.upsert.bind(storage.people);
    let calls = 0;
    storage.people.upsert = async (batch) => {
      if (++calls === 2) throw new Error('disk full');
      return upsert(batch);
    };
    const records = Array.from({ length: 12_000 }, (_, i) => ({ email: `p${i}@example.com` }));
    const { result, lines } = await run('fails.ndjson', ndjson(records), storage);
    expect(result).toMatchObject({ status: 'failed', loaded: 12_000, committed: 10_000, inserted: 10_000 });
    expect(lines).toEqual([
      'people from NDJSON: 10000 loaded (10000 new, 0 updated), 0 rejected',
      'people import failed after 10000 rows were committed: disk full',
    ]);
    expect(await storage.people.count()).toBe(10_000);
  });

  it('draws a progress bar only on a terminal', async () => {
    const records = ndjson(Array.from({ length: 3_000 }, (_, i) => ({ email: `t${i}@example.com` })));
    const tty = Object.assign(new PassThrough(), { isTTY: true, columns: 100 }) as unknown as NodeJS.WriteStream;
    const drawn: string[] = [];
    (tty as unknown as PassThrough).on('data', (chunk) => drawn.push(String(chunk)));
    const { lines } = await run('bar.ndjson', records, openMemoryStorage(), tty);
    expect(lines[0]).toBe('people from NDJSON: 3000 loaded (3000 new, 0 updated), 0 rejected');
    expect(drawn.join('')).toMatch(/people \[.*\] \d+% \| \d+ rows/);
    const pipe = Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.WriteStream;
    const piped: string[] = [];
    (pipe as unknown as PassThrough).on('data', (chunk) => piped.push(String(chunk)));
    await run('bar2.ndjson', records, openMemoryStorage(), pipe);
    expect(piped).toEqual([]);
  });
});

describe('importPeople into SQLite', () => {
  it('loads 10,000 people in batches, then finds them by email, hashes and name + address', async () => {
    const storage = await openStorage({ dataDir: join(dir, 'sqlite-10k') });
    try {
      const records = Array.from({ length: 10_000 }, (_, i) => ({
        person_id: `P${i}`,
        emails: [`person${i}@example.com`, `alt${i}@example.org`],
        first_name: `First${i % 97}`,
        last_name: `Last${i % 113}`,
        address: `${i} Main St`,
        city: 'Springfield',
        state: 'IL',
        zip: `${String(60000 + (i % 500)).padStart(5, '0')}-0001`,
        age: '25-34',
        interests: ['books'],
      }));
      const { result } = await run('10k.ndjson', ndjson(records), storage);
      expect(result).toMatchObject({ status: 'finished', loaded: 10_000, inserted: 10_000, rejected: 0 });
      expect(await storage.people.count()).toBe(10_000);

      const p = await storage.people.findByEmail('person4321@example.com');
      expect(p).toMatchObject({
        personKey: 'P4321',
        firstName: `First${4321 % 97}`,
        emails: ['person4321@example.com', 'alt4321@example.org'],
      });
      expect(await storage.people.findBySha1(sha1Hex('alt4321@example.org'))).toEqual(p);
      expect(await storage.people.findByMd5(md5Hex('PERSON4321@example.com'))).toEqual(p);
      const byName = await lookupByNameAndAddress(storage.people, {
        firstName: p!.firstName,
        lastName: p!.lastName,
        address: '4321 MAIN ST.',
        city: 'springfield',
        state: 'IL',
      });
      expect(byName).toEqual([p]);
      expect(await lookupByNameAndAddress(storage.people, { firstName: p!.firstName, lastName: p!.lastName, zip5: '60321' })).toEqual([p]);
      const many = await storage.people.findManyBySha1(records.slice(0, 1_000).map((r) => sha1Hex(r.emails[0]!)));
      expect(many.size).toBe(1_000);

      const again = await run('10k-again.ndjson', ndjson(records), storage);
      expect(again.lines[0]).toBe('people from NDJSON: 10000 loaded (0 new, 10000 updated), 0 rejected');
      expect(await storage.people.count()).toBe(10_000);
    } finally {
      await storage.close();
    }
  });
});
