import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewPerson } from '../../src/people/person.js';
import { NOT_ENOUGH_TO_APPEND } from '../../src/identity/append/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { peopleBatch } from '../helpers/people.js';

const jane: NewPerson = {
  personKey: 'P1',
  firstName: 'Katherine',
  middleName: 'Ann',
  lastName: 'Doe',
  address: '123 N Main St Apt 4',
  city: 'Springfield',
  state: 'IL',
  zip: '62701-1234',
  fields: { age: '35-44' },
  interests: [],
  emails: ['kate.doe@example.com', 'kd@example.org'],
};
const joe: NewPerson = { ...jane, personKey: 'P2', firstName: 'Joseph', middleName: null, emails: ['joe.doe@example.net'] };
const neighbour: NewPerson = {
  ...jane,
  personKey: 'P3',
  firstName: 'Rita',
  lastName: 'Roe',
  address: '125 N Main St',
  emails: ['rita@example.com'],
};

let t: TestApp;
let key: string;
beforeEach(async () => {
  t = await makeTestApp();
  await t.storage.people.upsert(peopleBatch([jane, joe, neighbour]));
  key = (await t.key('acme', { services: 'email_append,postal_append' })).key;
});
afterEach(() => t.close());

const eppend = (query: string, k = key) => t.app.inject({ url: `/v5/eppend?${query}&api_key=${k}` });
const bulk = (body: unknown, opts: { k?: string; type?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/v5/eppend/bulk?api_key=${opts.k ?? key}`,
    headers: { 'content-type': opts.type ?? 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

const kateIndividual = [
  { email: 'kate.doe@example.com', email_match_type: 'Individual' },
  { email: 'kd@example.org', email_match_type: 'Individual' },
];
const joeHousehold = { email: 'joe.doe@example.net', email_match_type: 'Household' };
const katePostal = {
  first_name: 'Katherine',
  last_name: 'Doe',
  address: '123 N Main St Apt 4',
  city: 'Springfield',
  state: 'IL',
  zip: '62701-1234',
};

describe('GET /v5/eppend: email append', () => {
  it('appends the person as Individual and the household after, on one line', async () => {
    const res = await eppend('first=Katherine&last=Doe&street=123%20N%20Main%20St%20Apt%204&city=Springfield&state=IL');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('\n');
    expect(res.json()).toEqual({ email_append: [...kateIndividual, joeHousehold] });
  });

  it.each([
    ['a nickname and a spelled-out street', 'first=Kate&last=DOE&street=123%20North%20Main%20Street%20Apt%204&city=Springfield&state=IL'],
    ['no unit, ZIP5', 'first=Katherine&last=Doe&street=123%20N%20Main%20St&zip=62701'],
    ['punctuation and a ZIP+4', 'first=katherine&middle=A.&last=Doe&street=123%20N.%20Main%20St.&city=Springfield&state=il&zip=62701-1234'],
    ['first + last + ZIP+4 without a street', 'first=Katherine&last=Doe&zip4=62701-1234'],
    ['a typo in the street name', 'first=Katherine&last=Doe&street=123%20N%20Mian%20St&zip=62701'],
  ])('matches with %s', async (_, query) => {
    expect((await eppend(query)).json()).toEqual({ email_append: [...kateIndividual, joeHousehold] });
  });

  it('gives Household matches only for an unknown member of the household', async () => {
    expect((await eppend('first=Mary&last=Doe&street=123%20N%20Main%20St&zip=62701')).json()).toEqual({
      email_append: [
        { email: 'kate.doe@example.com', email_match_type: 'Household' },
        { email: 'kd@example.org', email_match_type: 'Household' },
        joeHousehold,
      ],
    });
  });

  it.each([
    ['another house number', 'first=Katherine&last=Doe&street=127%20N%20Main%20St&zip=62701'],
    ['another apartment', 'first=Katherine&last=Doe&street=123%20N%20Main%20St%20Apt%209&zip=62701'],
    ['another last name at the address', 'first=Katherine&last=Smith&street=123%20N%20Main%20St&zip=62701'],
    ['a conflicting middle name', 'first=Katherine&middle=Beth&last=Doe&street=123%20N%20Main%20St&zip=62701'],
  ])('does not match Katherine with %s', async (_, query) => {
    const answer = (await eppend(query)).json() as { email_append?: { email: string; email_match_type: string }[] };
    expect(answer.email_append?.filter((e) => e.email_match_type === 'Individual') ?? []).toEqual([]);
    expect(answer.email_append?.map((e) => e.email) ?? []).not.toContain('rita@example.com');
  });

  it('answers {} when nobody matches', async () => {
    expect((await eppend('first=Ann&last=Smith&street=1%20Elm%20St&city=Springfield&state=IL')).json()).toEqual({});
  });
});

describe('GET /v5/eppend: postal append and both', () => {
  it('appends the postal address of an email, with a ZIP+4', async () => {
    expect((await eppend('email=KD%40example.org')).json()).toEqual({ postal_address: katePostal });
    expect((await eppend('email=nobody%40example.org')).json()).toEqual({});
  });

  it('finds the same mailbox written another way, only where the provider makes the spellings one mailbox', async () => {
    await t.storage.people.upsert(
      peopleBatch([{ ...jane, emails: ['kate.doe@example.com', 'kd@example.org', 'katedoe@gmail.com', 'kate.doe@yahoo.com'] }]),
    );
    for (const email of ['k.a.t.e.doe%40gmail.com', 'KateDoe%2Bnews%40googlemail.com', 'kate.doe%2Bx%40gmail.com']) {
      expect((await eppend(`email=${email}`)).json(), email).toEqual({ postal_address: katePostal });
    }
    // Dots at Yahoo make another mailbox; a hosted domain keeps its own rules.
    for (const email of ['katedoe%40yahoo.com', 'k.d%40example.org', 'kd%2Bx%40example.org']) {
      expect((await eppend(`email=${email}`)).json(), email).toEqual({});
    }
  });

  it('answers {} for a person known by email alone, without billing an empty postal address', async () => {
    const bare: NewPerson = {
      ...jane,
      personKey: 'P9',
      firstName: '',
      middleName: null,
      lastName: '',
      address: '',
      city: '',
      state: '',
      zip: '',
      emails: ['bare@example.com'],
    };
    await t.storage.people.upsert(peopleBatch([bare]));
    expect((await eppend('email=bare%40example.com')).json()).toEqual({});
    expect((await eppend('email=bare%40example.com&first=Someone')).json()).toEqual({});
    await t.meter.flush();
    const usage = await t.storage.usage.totals((await t.storage.keys.findByName('acme'))!.id);
    expect(usage.append_match ?? 0).toBe(0);
  });

  it('answers both when both are asked', async () => {
    expect((await eppend('email=joe.doe%40example.net&first=Katherine&last=Doe&street=123%20N%20Main%20St&zip=62701')).json()).toEqual({
      email_append: [...kateIndividual, joeHousehold],
      postal_address: { ...katePostal, first_name: 'Joseph', address: '123 N Main St Apt 4' },
    });
  });

  it('answers only what the key allows when both are asked', async () => {
    const postalOnly = (await t.key('postal', { services: 'postal_append' })).key;
    expect(
      (await eppend('email=kd%40example.org&first=Katherine&last=Doe&street=123%20N%20Main%20St&zip=62701', postalOnly)).json(),
    ).toEqual({
      postal_address: katePostal,
    });
  });
});

describe('GET /v5/eppend: request-data problems are the per-record error element', () => {
  it.each([
    ['', NOT_ENOUGH_TO_APPEND],
    ['first=Katherine&last=Doe', NOT_ENOUGH_TO_APPEND],
    ['first=Katherine&last=Doe&zip=62701', NOT_ENOUGH_TO_APPEND],
    ['email=not-an-address', 'Invalid parameter email: not a valid address'],
    ['street=1%20Main%20St&city=Springfield&state=IL', 'Invalid parameter street: a postal address needs first and last'],
    ['first=A&last=B&street=1%20Main%20St&zip=6270', 'Invalid parameter zip: must be five digits, optionally a dash and four digits'],
    ['first=A&last=B&street=1%20Main%20St&city=X&state=ZZ', 'Invalid parameter state: must be a two-letter US state abbreviation'],
  ])('%s', async (query, message) => {
    const res = await eppend(query);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { error_code: number; error_msg: string };
    expect(body.error_code).toBe(400);
    expect(body.error_msg.startsWith(message)).toBe(true);
  });

  it.each([
    ['a ZIP that does not exist', 'first=A&last=B&street=1%20Main%20St&zip=00000'],
    ['a ZIP in another state', 'first=A&last=B&street=1%20Main%20St&city=Springfield&state=CA&zip=62701'],
    ['a ZIP of another city', 'first=A&last=B&street=1%20Main%20St&city=Houston&state=IL&zip=62701'],
    ['a city not in the state', 'first=A&last=B&street=1%20Main%20St&city=Nowhereville&state=IL'],
  ])('400 element for %s', async (_, query) => {
    const res = await eppend(query);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ error_code: 400 });
  });

  it('401 for a key without either append service, 403 for a key that may not do what is asked', async () => {
    const verifyOnly = (await t.key('verify', { services: 'verification' })).key;
    expect((await eppend('email=kd%40example.org', verifyOnly)).statusCode).toBe(401);
    expect((await eppend('email=kd%40example.org', 'nope')).statusCode).toBe(401);
    const postalOnly = (await t.key('postal', { services: 'postal_append' })).key;
    const res = await eppend('first=Katherine&last=Doe&street=123%20N%20Main%20St&zip=62701', postalOnly);
    expect(res.statusCode).toBe(403);
    expect(res.body).toBe('{"error_code":403,"error_msg":"API key is not configured for any section this endpoint returns"}');
  });

  it('answers a bulk record the key may not do with the per-record 403 element, byte for byte', async () => {
    const postalOnly = (await t.key('postal-bulk', { services: 'postal_append' })).key;
    const emailOnly = (await t.key('email-bulk', { services: 'email_append' })).key;
    const byName = { first: 'Katherine', last: 'Doe', street: '123 N Main St', zip: '62701' };
    const byEmail = { email: 'kd@example.org' };
    expect((await bulk([byName, 'not an object'], { k: postalOnly })).body).toBe(
      '[{"error_code":403,"error_msg":"API key is not configured for email append"},{"error_code":400,"error_msg":"Invalid record: must be a JSON object"}]',
    );
    expect((await bulk([byEmail], { k: emailOnly })).body).toBe(
      '[{"error_code":403,"error_msg":"API key is not configured for postal append"}]',
    );
  });
});

describe('POST /v5/eppend/bulk', () => {
  it('answers each record in order: matches, {}, and error elements', async () => {
    const res = await bulk([
      { first: 'Kate', last: 'Doe', street: '123 N Main St', zip: '62701' },
      { email: 'kd@example.org' },
      { first: 'Nobody', last: 'Here', street: '1 Elm St', zip: '62701' },
      { first: 'A', last: 'B', street: '1 Main St', zip: '00000' },
      'not an object',
      {},
    ]);
    expect(res.statusCode).toBe(200);
    const answers = res.json() as unknown[];
    expect(answers).toHaveLength(6);
    expect(answers[0]).toEqual({ email_append: [...kateIndividual, joeHousehold] });
    expect(answers[1]).toEqual({ postal_address: katePostal });
    expect(answers[2]).toEqual({});
    expect(answers[3]).toMatchObject({ error_code: 400 });
    expect(answers[4]).toEqual({ error_code: 400, error_msg: 'Invalid record: must be a JSON object' });
    expect(answers[5]).toEqual({ error_code: 400, error_msg: NOT_ENOUGH_TO_APPEND });
  });

  it('takes 1,250 records and refuses 1,251', async () => {
    const records = Array.from({ length: 1_250 }, (_, i) => ({ email: i % 2 ? 'kd@example.org' : `n${i}@example.com` }));
    // A bulk call costs its records against the rate: a key of its own, fast enough for both calls.
    const k = (await t.key('big-batches', { services: 'email_append,postal_append', rate: '100000' })).key;
    const res = await bulk(records, { k });
    expect(res.statusCode).toBe(200);
    expect((res.json() as unknown[]).filter((a) => JSON.stringify(a) !== '{}')).toHaveLength(625);
    const over = await bulk([...records, { email: 'x@example.com' }], { k });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ error_code: 400, error_msg: 'Too many records requested' });
  });

  it.each([
    ['a body that is not JSON', '{not json', 'application/json'],
    ['an object instead of an array', '{"email":"kd@example.org"}', 'application/json'],
    ['a text content type', '[]', 'text/plain'],
  ])('400 Invalid JSON for %s', async (_, body, type) => {
    const res = await bulk(body, { type });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error_code: 400, error_msg: 'Invalid JSON' });
  });

  it('answers [] for an empty array and meters appended addresses only', async () => {
    expect((await bulk([])).json()).toEqual([]);
    await bulk([
      { email: 'kd@example.org' },
      { email: 'nobody@example.org' },
      { first: 'Kate', last: 'Doe', street: '123 N Main St', zip: '62701' },
    ]);
    await t.meter.flush();
    const record = await t.storage.keys.findByName('acme');
    expect((await t.storage.usage.totals(record!.id)).append_match).toBe(1 + 0 + 3);
  });
});
