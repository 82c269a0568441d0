import { describe, expect, it } from 'vitest';
import { md5Hex, sha1Hex } from './email-hash.js';
import type { NewPerson } from './person.js';
import { preparePeople } from './person-row.js';

const person = (key: string, overrides: Partial<NewPerson> = {}): NewPerson => ({
  personKey: key,
  firstName: 'Jane',
  middleName: null,
  lastName: "O'Brien",
  address: '12 Main St.',
  city: 'St. Louis',
  state: 'mo',
  zip: '63101-1234',
  fields: { age: '35-44' },
  interests: [],
  emails: [`${key}@example.com`],
  ...overrides,
});

describe('preparePeople', () => {
  it('prepares every column a store writes, with the blocking columns it is given', () => {
    const batch = preparePeople([person('a', { emails: [' A@Example.com ', 'a@example.com', 'A.Doe+x@GoogleMail.com'] })], (p) => ({
      houseNumber: p.address.slice(0, 2),
      lastPhonetic: `~${p.lastName}`,
    }));
    expect(batch.rows).toEqual([
      {
        person: person('a', { emails: ['a@example.com', 'a.doe+x@googlemail.com'] }),
        normalized: { firstNorm: 'jane', lastNorm: 'obrien', streetNorm: '12 MAIN ST', cityNorm: 'ST LOUIS', state: 'MO', zip5: '63101' },
        blocking: { houseNumber: '12', lastPhonetic: "~O'Brien" },
        record: { json: '{"age":"35-44","zip":"63101"}', fields: 2 },
      },
    ]);
    // The hashes are of the address as written; the mailbox key only where the domain has a rule.
    expect(batch.hashes).toEqual(
      new Map([
        ['a@example.com', { sha1: sha1Hex('a@example.com'), md5: md5Hex('a@example.com'), mailbox: null }],
        [
          'a.doe+x@googlemail.com',
          { sha1: sha1Hex('a.doe+x@googlemail.com'), md5: md5Hex('a.doe+x@googlemail.com'), mailbox: 'adoe@gmail.com' },
        ],
      ]),
    );
  });

  it('plans one row per key (its last) and gives a shared email to the person listing it last, counting as if applied in order', () => {
    const blocking = () => ({ houseNumber: '', lastPhonetic: '' });
    const batch = preparePeople(
      [
        person('a', { emails: ['s@example.com', 'a@example.com'] }),
        person('b', { emails: ['s@example.com'] }),
        person('a', { firstName: 'Janet', emails: ['s@example.com', 'a@example.com'] }),
      ],
      blocking,
    );
    expect(batch.rows.map((r) => r.person.personKey)).toEqual(['a', 'b', 'a']);
    expect(batch.plan.map((r) => [r.person.personKey, r.person.firstName, r.person.emails])).toEqual([
      ['b', 'Jane', []],
      ['a', 'Janet', ['s@example.com', 'a@example.com']],
    ]);
    expect(batch.count(new Set())).toEqual({ inserted: 2, updated: 1 });
    expect(batch.count(new Set(['b']))).toEqual({ inserted: 1, updated: 2 });
  });
});
