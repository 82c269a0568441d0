/**
 * Name + postal queries that are not the record as stored — a nickname, a typo, a unit left out,
 * ZIP5 against ZIP+4, a middle name or initial — through /v5/td, /v5/ei/bulk, /v5/eppend and
 * /v5/eppend/bulk, on the in-memory store and on SQLite (each its own candidate lookup).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewPerson } from '../../src/people/person.js';
import type { Storage } from '../../src/storage/interfaces.js';
import { openMemoryStorage, openStorage } from '../../src/storage/open-storage.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { peopleBatch } from '../helpers/people.js';

const william: NewPerson = {
  personKey: 'P1',
  firstName: 'William',
  middleName: 'James',
  lastName: 'Johnson',
  address: '12 Oak St Apt 3',
  city: 'Springfield',
  state: 'IL',
  zip: '62701-1234',
  fields: { age: '35-44' },
  interests: [],
  emails: ['will.johnson@example.com'],
};
const mary: NewPerson = {
  ...william,
  personKey: 'P2',
  firstName: 'Mary',
  middleName: null,
  fields: { age: '45-54' },
  emails: ['mary.j@example.net'],
};
const walter: NewPerson = {
  ...william,
  personKey: 'P3',
  firstName: 'Walter',
  middleName: null,
  fields: { age: '65-74' },
  emails: ['walt@example.org'],
};
const neighbour: NewPerson = {
  ...william,
  personKey: 'P4',
  firstName: 'Robert',
  lastName: 'Smith',
  address: '14 Oak St',
  fields: { age: '25-34' },
  emails: ['bob.smith@example.com'],
};

const WILLIAM = { age: '35-44' };
const william1 = { email: 'will.johnson@example.com', email_match_type: 'Individual' };
const household = [
  { email: 'mary.j@example.net', email_match_type: 'Household' },
  { email: 'walt@example.org', email_match_type: 'Household' },
];
const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
const at = { street: '12 Oak St Apt 3', city: 'Springfield', state: 'IL' };

describe.each([
  ['in memory', async () => ({ storage: openMemoryStorage(), dir: undefined })],
  [
    'on SQLite',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'mailsure-fuzzy-'));
      return { storage: await openStorage({ dataDir: dir }), dir };
    },
  ],
])('fuzzy name + postal matching, %s', (_, open) => {
  let t: TestApp;
  let storage: Storage;
  let dir: string | undefined;
  let enrichKey: string;
  let appendKey: string;
  beforeEach(async () => {
    ({ storage, dir } = await open());
    t = await makeTestApp({ storage });
    await storage.people.upsert(peopleBatch([william, mary, walter, neighbour]));
    enrichKey = (await t.key('enrich', { services: 'enrichment' })).key;
    appendKey = (await t.key('append', { services: 'email_append' })).key;
  });
  afterEach(async () => {
    await t.close();
    await storage.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const td = async (params: Record<string, string>) => {
    const res = await t.app.inject({ url: `/v5/td?${q({ ...params, fields: 'age' })}&api_key=${enrichKey}` });
    expect(res.statusCode).toBe(200);
    return res.json() as unknown;
  };
  const eppend = async (params: Record<string, string>) => {
    const res = await t.app.inject({ url: `/v5/eppend?${q(params)}&api_key=${appendKey}` });
    expect(res.statusCode).toBe(200);
    return res.json() as unknown;
  };
  const post = async (path: string, key: string, body: unknown[]) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${path}&api_key=${key}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(res.statusCode).toBe(200);
    return res.json() as unknown[];
  };

  const matching: [string, Record<string, string>][] = [
    ['the record as stored', { first: 'William', last: 'Johnson', ...at }],
    ['a nickname (Bill → William)', { first: 'Bill', last: 'Johnson', ...at }],
    [
      'a nickname and a spelled-out, upper-case street',
      { first: 'BILL', last: 'johnson', street: '12 OAK STREET APARTMENT 3', city: 'Springfield', state: 'IL' },
    ],
    ['a one-slip typo in the first name', { first: 'Willaim', last: 'Johnson', ...at }],
    ['a one-slip typo in the last name', { first: 'William', last: 'Jonhson', ...at }],
    ['the unit left out', { first: 'William', last: 'Johnson', street: '12 Oak St', city: 'Springfield', state: 'IL' }],
    ['ZIP5 with the street', { first: 'William', last: 'Johnson', street: '12 Oak St Apt 3', zip: '62701' }],
    ['ZIP+4 with the street', { first: 'William', last: 'Johnson', street: '12 Oak St Apt 3', zip: '62701-1234' }],
    ['ZIP+4 without a street (zip4)', { first: 'Bill', last: 'Johnson', zip4: '62701-1234' }],
    ['the middle initial', { first: 'William', middle: 'J', last: 'Johnson', ...at }],
    ['the middle name', { first: 'William', middle: 'James', last: 'Johnson', ...at }],
    ['a full first name as first + middle in one field', { first: 'William J.', last: 'Johnson', ...at }],
    // ZIP correction (issue 30): nobody lives at 12 Oak St in 62702, and of Springfield's other ZIPs
    // only 62701 has it, so it is read there; the exact name gives Individual.
    ["the street in the city's other ZIP5, the exact name", { first: 'William', last: 'Johnson', street: '12 Oak St Apt 3', zip: '62702' }],
  ];
  const notWilliam: [string, Record<string, string>][] = [
    ['a nickname two hops away (Bob ↔ Bill ↔ William)', { first: 'Bob', last: 'Johnson', ...at }],
    ['two slips in the first name', { first: 'Wlilaim', last: 'Johnson', ...at }],
    ['a typo in both names', { first: 'Willaim', last: 'Jonhson', ...at }],
    ['a conflicting middle name', { first: 'William', middle: 'Robert', last: 'Johnson', ...at }],
    // A corrected ZIP is a weaker signal: a nickname there gives the household only.
    ["the street in the city's other ZIP5, a nickname", { first: 'Bill', last: 'Johnson', street: '12 Oak St Apt 3', zip: '62702' }],
    ['a conflicting middle initial', { first: 'William', middle: 'R', last: 'Johnson', ...at }],
    ['an initial two members share (W: William, Walter)', { first: 'W', last: 'Johnson', ...at }],
  ];
  const nobody: [string, Record<string, string>][] = [
    ['another apartment', { first: 'William', last: 'Johnson', street: '12 Oak St Apt 5', city: 'Springfield', state: 'IL' }],
    ['another ZIP+4 without a street', { first: 'William', last: 'Johnson', zip4: '62701-9999' }],
  ];

  describe('GET /v5/td enriches William', () => {
    it.each(matching)('with %s', async (_, params) => {
      expect(await td(params)).toEqual(WILLIAM);
    });
  });

  describe('GET /v5/td answers {} (a household match is somebody else)', () => {
    it.each([...notWilliam, ...nobody])('with %s', async (_, params) => {
      expect(await td(params)).toEqual({});
    });

    it('but enriches Mary by her initial, the only M at the address', async () => {
      expect(await td({ first: 'M.', last: 'Johnson', ...at })).toEqual({ age: '45-54' });
    });
  });

  describe('GET /v5/eppend', () => {
    it.each(matching)('appends William as Individual, the household after, with %s', async (_, params) => {
      expect(await eppend(params)).toEqual({ email_append: [william1, ...household] });
    });

    it.each(notWilliam)('appends the household only with %s', async (_, params) => {
      const answer = (await eppend(params)) as { email_append: { email: string; email_match_type: string }[] };
      expect(answer.email_append.map((e) => e.email_match_type)).toEqual(['Household', 'Household', 'Household']);
      expect(answer.email_append.map((e) => e.email).sort()).toEqual([
        'mary.j@example.net',
        'walt@example.org',
        'will.johnson@example.com',
      ]);
    });

    it.each(nobody)('appends nothing with %s', async (_, params) => {
      expect(await eppend(params)).toEqual({});
    });
  });

  describe('bulk', () => {
    const records = [...matching, ...notWilliam, ...nobody].map(([, params]) => params);

    it('POST /v5/ei/bulk answers each fuzzy record as /v5/td does, in order', async () => {
      const answers = await post('/v5/ei/bulk?fields=age', enrichKey, records);
      expect(answers).toEqual([...matching.map(() => WILLIAM), ...notWilliam.map(() => ({})), ...nobody.map(() => ({}))]);
    });

    it('POST /v5/eppend/bulk answers each fuzzy record as /v5/eppend does, in order', async () => {
      const answers = (await post('/v5/eppend/bulk?', appendKey, records)) as { email_append?: { email_match_type: string }[] }[];
      expect(answers.slice(0, matching.length)).toEqual(matching.map(() => ({ email_append: [william1, ...household] })));
      expect(
        answers.slice(matching.length, matching.length + notWilliam.length).map((a) => a.email_append?.map((e) => e.email_match_type)),
      ).toEqual(notWilliam.map(() => ['Household', 'Household', 'Household']));
      expect(answers.slice(matching.length + notWilliam.length)).toEqual(nobody.map(() => ({})));
    });
  });
});
