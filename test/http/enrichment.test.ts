import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewPerson } from '../../src/people/person.js';
import { md5Hex } from '../../src/people/email-hash.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { BULK_SLICE } from '../../src/core/in-slices.js';
import { peopleBatch } from '../helpers/people.js';
import { prepareActivity } from '../../src/people/activity-rules.js';

const hash = (algo: 'sha1' | 'md5', s: string) => createHash(algo).update(s).digest('hex');
const clock = { now: () => Date.parse('2026-11-22T12:00:00Z') };

const jane: NewPerson = {
  personKey: 'P1',
  firstName: 'Jane',
  middleName: null,
  lastName: 'Doe',
  address: '123 Main St',
  city: 'Springfield',
  state: 'IL',
  zip: '62701-1234',
  fields: {
    age: '35-44',
    gender: 'Female',
    household_income: '75k-100k',
    occupation: 'Nurse',
    financial_segment: 'Active Savers',
    rfm_avg_dollars: 120,
    rfm_last_order: '2026-10-01',
  },
  interests: ['books', 'travel'],
  emails: ['jane.doe@example.com', 'jd@example.org'],
};
const joe: NewPerson = {
  ...jane,
  personKey: 'P2',
  firstName: 'Joe',
  fields: { age: '45-54', gender: 'Male', city_note: undefined } as never,
  interests: [],
  emails: ['joe@example.net'],
};

let t: TestApp;
let key: string;
beforeEach(async () => {
  t = await makeTestApp({ clock });
  await t.storage.people.upsert(peopleBatch([jane, { ...joe, fields: { age: '45-54', gender: 'Male' } }]));
  await t.storage.activity.add(
    prepareActivity([
      { email: 'jane.doe@example.com', source: 'news-a', seenOn: '2023-05-01', event: 'seen' },
      { email: 'jane.doe@example.com', source: 'news-b', seenOn: '2026-09-10', event: 'open' },
      { email: 'jane.doe@example.com', source: 'shop-c', seenOn: '2026-11-01', event: 'seen' },
    ]),
  );
  key = (await t.key('acme')).key;
});
afterEach(() => t.close());

const td = (query: string, k = key) => t.app.inject({ url: `/v5/td?${query}&api_key=${k}` });
const bulk = (body: unknown, opts: { k?: string; type?: string; query?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/v5/ei/bulk?api_key=${opts.k ?? key}${opts.query ?? ''}`,
    headers: { 'content-type': opts.type ?? 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

const janeRecord = {
  age: '35-44',
  gender: 'Female',
  zip: '62701',
  household_income: '75k-100k',
  occupation: 'Nurse',
  rfm_avg_dollars: 120,
  rfm_last_order: '2026-10-01',
  financial_segment: 'Active Savers',
  interests: { books: true, travel: true },
};
const janeEam = { date_first_seen: '2023-05-01', longevity: 3, velocity: 2, popularity: 2, month_last_open: '2026-09' };
const janePostal = { first_name: 'Jane', last_name: 'Doe', address: '123 Main St', city: 'Springfield', state: 'IL', zip: '62701-1234' };

describe('GET /v5/td', () => {
  it('enriches by email, with activity metrics and the postal address', async () => {
    const res = await td('email=Jane.Doe%40Example.com');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('\n');
    expect(res.json()).toEqual({ ...janeRecord, eam: janeEam, postal_address: janePostal });
  });

  it('enriches by SHA-1 and MD5 in either case', async () => {
    expect((await td(`sha1_email=${hash('sha1', 'jane.doe@example.com').toUpperCase()}`)).json()).toEqual({
      ...janeRecord,
      eam: janeEam,
      postal_address: janePostal,
    });
    expect((await td(`md5_email=${hash('md5', 'jd@example.org')}`)).json()).toMatchObject({
      ...janeRecord,
      eam: { date_first_seen: 'now', longevity: 0 },
    });
  });

  it('matches by name and postal address in both client shapes, without eam or postal_address', async () => {
    expect((await td('first=Jane&last=Doe&street=123%20Main%20St&city=Springfield&state=IL')).json()).toEqual(janeRecord);
    expect((await td('first=jane&last=DOE&zip4=62701-1234')).json()).toEqual(janeRecord);
    expect((await td('first=Jane&last=Doe&street=123%20Main%20St&city=Springfield&state=IL&zip=62701')).json()).toEqual(janeRecord);
  });

  it('answers {} when nothing matches, and the default eam for an unseen address', async () => {
    const noEam = (await t.key('enrich-only', { services: 'enrichment' })).key;
    expect((await td('email=nobody@example.com', noEam)).json()).toEqual({});
    expect((await td('first=Ann&last=Other&zip=62701-1234')).json()).toEqual({});
    expect((await td('email=nobody@example.com')).json()).toEqual({
      eam: { date_first_seen: 'now', longevity: 0, velocity: 0, popularity: 0 },
    });
  });

  it('restricts to the requested fields, accepting the sample payload’s misspelling', async () => {
    expect((await td('email=jane.doe@example.com&fields=age,financial_segement,velocity')).json()).toEqual({
      age: '35-44',
      financial_segment: 'Active Savers',
      eam: { velocity: 2 },
    });
  });

  it('applies the key’s field allowlist on top', async () => {
    const narrow = (await t.key('narrow', { fields: 'age,gender' })).key;
    expect((await td('email=jane.doe@example.com', narrow)).json()).toEqual({ age: '35-44', gender: 'Female' });
    expect((await td('email=jane.doe@example.com&fields=age,occupation', narrow)).json()).toEqual({ age: '35-44' });
  });

  it('pretty-prints escaped HTML for format=html', async () => {
    await t.storage.people.upsert(
      peopleBatch([{ ...jane, personKey: 'P3', city: '<script>alert(1)</script>', emails: ['x@example.com'] }]),
    );
    const res = await td('email=x@example.com&format=html&fields=postal_address');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).not.toContain('<script>');
    expect(res.body).toContain('\n  "postal_address": {');
  });

  it('meters only the fields returned', async () => {
    await td('email=jane.doe@example.com&fields=age,gender');
    await td('email=nobody@example.com&fields=age');
    await t.meter.flush();
    const record = await t.storage.keys.findByName('acme');
    expect((await t.storage.usage.totals(record!.id)).enrichment_field).toBe(2 + 0);
  });

  it('identifies by email alone when a partial name or postal address comes with it (a list with email,first columns)', async () => {
    const full = { ...janeRecord, eam: janeEam, postal_address: janePostal };
    for (const extra of [
      'first=Jane',
      'last=Doe',
      'first=Someone',
      'middle=Q',
      'street=1%20Elm%20St',
      'city=Springfield&first=Jane',
      'zip=62701',
    ]) {
      const res = await td(`email=jane.doe%40example.com&${extra}`);
      expect(res.statusCode, extra).toBe(200);
      expect(res.json(), extra).toEqual(full);
    }
    expect((await td(`md5_email=${hash('md5', 'jane.doe@example.com')}&first=Jane`)).json()).toEqual(full);
  });

  it('sends no empty postal_address for a person known by email alone, and bills only what it returned', async () => {
    const bare: NewPerson = {
      personKey: 'P9',
      firstName: '',
      middleName: null,
      lastName: '',
      address: '',
      city: '',
      state: '',
      zip: '',
      fields: { age: '25-34' },
      interests: [],
      emails: ['bare@example.com'],
    };
    await t.storage.people.upsert(peopleBatch([bare]));
    expect((await td('email=bare%40example.com')).json()).toEqual({
      age: '25-34',
      eam: { date_first_seen: 'now', longevity: 0, velocity: 0, popularity: 0 },
    });
    expect((await td('email=bare%40example.com&fields=postal_address')).json()).toEqual({});
    expect((await bulk([{ email: 'bare@example.com' }], { query: '&fields=age,postal_address' })).json()).toEqual([{ age: '25-34' }]);
    await t.meter.flush();
    const record = await t.storage.keys.findByName('acme');
    // age + eam, nothing, age: the empty postal address is never billed.
    expect((await t.storage.usage.totals(record!.id)).enrichment_field).toBe(2 + 0 + 1);
  });

  it.each([
    ['', 'Not enough to identify a person'],
    ['first=Jane&last=Doe', 'Not enough to identify a person'],
    ['email=not-an-address', 'Invalid parameter email: not a valid address'],
    ['email=john..doe@gmail.com', 'Invalid parameter email: not a valid address'],
    ['sha1_email=abc', 'Invalid parameter sha1_email: must be 40 hexadecimal characters'],
    [`sha1_email=${'g'.repeat(40)}`, 'Invalid parameter sha1_email: must be 40 hexadecimal characters'],
    [`md5_email=${'a'.repeat(33)}`, 'Invalid parameter md5_email: must be 32 hexadecimal characters'],
    ['street=1%20Main%20St&city=Springfield&state=IL', 'Invalid parameter street: a postal address needs first and last'],
    ['city=Springfield&first=Jane', 'Invalid parameter city: a postal address needs first and last'],
    ['first=Jane&street=1%20Main&city=X&state=IL', 'Invalid parameter street: a postal address needs first and last'],
    ['last=Doe&zip=62701-1234', 'Missing required parameter: first'],
    ['first=Jane&last=Doe&zip=627011234', 'Invalid parameter zip: must be five digits, optionally a dash and four digits'],
    ['first=Jane&last=Doe&zip4=6270', 'Invalid parameter zip4: must be five digits, optionally a dash and four digits'],
    ['first=Jane&last=Doe&street=1%20Main&city=X&state=ZZ', 'Invalid parameter state: must be a two-letter US state abbreviation'],
    ['first=Jane&last=Doe&zip=62701-1234&zip4=62702-1234', 'Invalid parameter zip4: give zip or zip4, not both'],
    ['email=jane.doe@example.com&fields=age,shoe_size', 'Invalid parameter fields: unknown field shoe_size'],
    ['email=jane.doe@example.com&email=jd@example.org', 'Invalid parameter email: must be given once'],
    [`email=${'a'.repeat(300)}@example.com`, 'Invalid parameter email: longer than 256 characters'],
    ['email=jane.doe@example.com&format=pdf', 'Invalid parameter format'],
  ])('answers %j with 400', async (query, message) => {
    const res = await td(query);
    expect(res.statusCode).toBe(400);
    expect(res.json().error_code).toBe(400);
    expect(res.json().error_msg).toContain(message);
  });

  it('refuses keys without an enrichment section (401) or with no field left (403)', async () => {
    const verifyOnly = (await t.key('v', { services: 'verification' })).key;
    const res = await td('email=jane.doe@example.com', verifyOnly);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error_code: 401, error_msg: 'API key is not permitted for this endpoint' });
    const onlyPostal = (await t.key('p', { services: 'enrichment', fields: 'postal_address' })).key;
    const none = await td('email=jane.doe@example.com', onlyPostal);
    expect(none.statusCode).toBe(403);
    expect(none.json()).toEqual({ error_code: 403, error_msg: 'API key is not configured for any section this endpoint returns' });
  });
});

describe('POST /v5/ei/bulk', () => {
  it('answers one element per record, in order, with per-record errors', async () => {
    const res = await bulk(
      [
        { email: 'jane.doe@example.com' },
        { email: 'bad-address' },
        { first: 'Jane', last: 'Doe', zip4: '62701-1234' },
        'not an object',
        { email: 'nobody@example.com' },
        { md5_email: hash('md5', 'joe@example.net') },
      ],
      { query: '&fields=age,gender,velocity' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('\n');
    expect(res.body).toContain(',{"error_code":400,"error_msg":"Invalid record: must be a JSON object"},');
    expect(res.json()).toEqual([
      { age: '35-44', gender: 'Female', eam: { velocity: 2 } },
      { error_code: 400, error_msg: expect.stringContaining('Invalid parameter email: not a valid address') },
      { age: '35-44', gender: 'Female' },
      { error_code: 400, error_msg: 'Invalid record: must be a JSON object' },
      { eam: { velocity: 0 } },
      { age: '45-54', gender: 'Male', eam: { velocity: 0 } },
    ]);
  });

  it('enriches records that carry an email and part of a name', async () => {
    const res = await bulk(
      [
        { email: 'jane.doe@example.com', first: 'Jane' },
        { email: 'joe@example.net', last: 'Doe' },
      ],
      { query: '&fields=age,gender' },
    );
    expect(res.json()).toEqual([
      { age: '35-44', gender: 'Female' },
      { age: '45-54', gender: 'Male' },
    ]);
  });

  it('answers [] for []', async () => {
    expect((await bulk([])).json()).toEqual([]);
  });

  it.each([
    ['a body that is not JSON', '{"email": ', 'application/json'],
    ['a JSON object instead of an array', { email: 'jane.doe@example.com' }, 'application/json'],
    ['a missing application/json content type', '[{"email":"jane.doe@example.com"}]', 'text/plain'],
    ['an empty body', '', 'application/json'],
  ])('answers %s with 400 Invalid JSON', async (_what, body, type) => {
    const res = await bulk(body, { type });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error_code: 400, error_msg: 'Invalid JSON' });
  });

  it('takes 5,000 records and refuses 5,001', async () => {
    // A bulk call costs its records against the rate: a key of its own, fast enough for both calls.
    const k = (await t.key('big-batches', { rate: '100000' })).key;
    const ok = await bulk(
      Array.from({ length: 5_000 }, (_, i) => ({ email: `user${i}@example.com` })),
      { query: '&fields=age', k },
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toHaveLength(5_000);
    const tooMany = await bulk(
      Array.from({ length: 5_001 }, () => ({})),
      { k },
    );
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toEqual({ error_code: 400, error_msg: 'Too many records requested' });
  });

  it('looks records up in batches, not one query per record', async () => {
    const calls: string[] = [];
    const original = t.storage.people.findProfiles.bind(t.storage.people);
    t.storage.people.findProfiles = async (by, values, withPostal) => (
      calls.push(`${by}:${values.length}`),
      original(by, values, withPostal)
    );
    await bulk([...Array.from({ length: 300 }, (_, i) => ({ email: `user${i}@example.com` })), { md5_email: md5Hex('user1@example.com') }]);
    // One call a kind each slice of BULK_SLICE records uses (the loop is let go between slices),
    // none for the kind it does not (sha1).
    const slices = Array.from({ length: 300 / BULK_SLICE }, () => `email:${BULK_SLICE}`);
    expect(calls.sort()).toEqual([...slices, 'md5:1']);
  });
});

describe('every catalog through the API', () => {
  it('returns each catalog field, with every allowed value, exactly as imported', async () => {
    const { CATALOG, INTERESTS } = await import('../../src/people/catalog.js');
    const { personFrom } = await import('../../src/people/person-record.js');
    const longest = Math.max(...Object.values(CATALOG).map((values) => values.length));
    const people: NewPerson[] = [];
    for (let i = 0; i < longest; i++) {
      const record: Record<string, unknown> = {
        person_id: `C${i}`,
        email: `catalog${i}@example.com`,
        first_name: 'Cat',
        last_name: `Alog${i}`,
        address: `${i + 1} Main St`,
        city: 'Springfield',
        state: 'IL',
        zip: '62701-1234',
        interests: [INTERESTS[i % INTERESTS.length]],
      };
      for (const [field, values] of Object.entries(CATALOG)) record[field] = values[i % values.length];
      const parsed = personFrom(record);
      if (!('person' in parsed)) throw new Error(parsed.problems.join('; '));
      people.push(parsed.person);
    }
    await t.storage.people.upsert(peopleBatch(people));
    const fields = Object.keys(CATALOG).join(',');
    const answers = await bulk(
      people.map((p) => ({ email: p.emails[0] })),
      { query: `&fields=${fields},interests` },
    );
    const records = answers.json() as Record<string, unknown>[];
    records.forEach((record, i) => {
      for (const [field, values] of Object.entries(CATALOG)) expect(record[field]).toBe(values[i % values.length]);
      expect(record.interests).toEqual({ [INTERESTS[i % INTERESTS.length]!]: true });
    });
    // Every value of every list was served at least once.
    for (const [field, values] of Object.entries(CATALOG)) {
      expect(new Set(records.map((r) => r[field]))).toEqual(new Set(values));
    }
  });
});
