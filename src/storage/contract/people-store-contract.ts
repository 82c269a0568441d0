import { describe, expect, it } from 'vitest';
import { md5Hex, sha1Hex } from '../../people/email-hash.js';
import { findPeopleByEmail, findProfilesByEmail } from '../../people/mailbox-lookup.js';
import { lookupByNameAndAddress } from '../../people/people-plan.js';
import type { NameAddressQuery, NewPerson, PersonRecord } from '../../people/person.js';
import { lastNamePhonetic } from '../../identity/name/index.js';
import type { CurrentStorage } from './fixtures.js';
import { newPerson, peopleBatch } from './people-fixtures.js';

const asRecord = (p: NewPerson, id: number): PersonRecord => ({ ...p, id });

export function peopleStoreContract(storage: CurrentStorage): void {
  const people = () => storage().people;
  const emailsOf = async (email: string) => (await people().findByEmail(email))?.emails;

  describe('PeopleStore', () => {
    it('inserts people and finds them by email with every field', async () => {
      expect(await people().count()).toBe(0);
      expect(await people().upsert(peopleBatch([]))).toEqual({ inserted: 0, updated: 0 });
      const jane = newPerson('jane', { middleName: 'Q', emails: ['jane@example.com', 'jq@example.org'] });
      expect(await people().upsert(peopleBatch([jane, newPerson('john', { firstName: 'John' })]))).toEqual({ inserted: 2, updated: 0 });
      const found = await people().findByEmail('jq@example.org');
      expect(found).toEqual(asRecord(jane, found!.id));
      expect(found!.id).toBeTypeOf('number');
      expect(await people().findByEmail('john@example.com')).toMatchObject({ firstName: 'John', personKey: 'john' });
      expect(await people().findByEmail('nobody@example.com')).toBeUndefined();
      expect(await people().count()).toBe(2);
    });

    it('updates by person key instead of duplicating, keeping the id', async () => {
      await people().upsert(peopleBatch([newPerson('jane', { middleName: 'Q' })]));
      const before = await people().findByEmail('jane@example.com');
      const changed = newPerson('jane', {
        lastName: 'Smith',
        fields: { gender: 'Female' },
        interests: [],
        emails: ['jane@example.com'],
      });
      expect(await people().upsert(peopleBatch([changed]))).toEqual({ inserted: 0, updated: 1 });
      expect(await people().findByEmail('jane@example.com')).toEqual(asRecord(changed, before!.id));
      expect(await people().count()).toBe(1);
    });

    it('counts a key repeated within one call as new, then updated; the last one wins', async () => {
      const last = newPerson('jane', { firstName: 'Janet' });
      expect(await people().upsert(peopleBatch([newPerson('jane'), newPerson('bob'), last]))).toEqual({ inserted: 2, updated: 1 });
      expect(await people().findByEmail('jane@example.com')).toMatchObject({ firstName: 'Janet' });
      expect(await people().count()).toBe(2);
    });

    it("replaces a person's emails, in the order listed, normalised", async () => {
      await people().upsert(peopleBatch([newPerson('jane', { emails: ['x@example.com', 'y@example.com'] })]));
      await people().upsert(peopleBatch([newPerson('jane', { emails: [' Z@Example.com ', 'y@example.com', 'z@example.com'] })]));
      expect(await people().findByEmail('x@example.com')).toBeUndefined();
      expect(await emailsOf('y@example.com')).toEqual(['z@example.com', 'y@example.com']);
      await people().upsert(peopleBatch([newPerson('jane', { emails: [] })]));
      expect(await people().findByEmail('y@example.com')).toBeUndefined();
      expect(await people().count()).toBe(1);
    });

    it('moves an email to the person that lists it last', async () => {
      await people().upsert(peopleBatch([newPerson('ann', { emails: ['ann@example.com', 'shared@example.com'] })]));
      await people().upsert(peopleBatch([newPerson('bob', { emails: ['shared@example.com', 'bob@example.com'] })]));
      expect(await people().findByEmail('shared@example.com')).toMatchObject({ personKey: 'bob' });
      expect(await emailsOf('ann@example.com')).toEqual(['ann@example.com']);
      expect(await emailsOf('bob@example.com')).toEqual(['shared@example.com', 'bob@example.com']);
    });

    it('moves an email within one call as if the people came one by one', async () => {
      const counts = await people().upsert(
        peopleBatch([
          newPerson('ann', { emails: ['a@example.com', 's@example.com'] }),
          newPerson('bob', { emails: ['s@example.com', 'b@example.com'] }),
          newPerson('ann', { emails: ['a@example.com', 'a2@example.com'] }),
          newPerson('cy', { emails: ['c@example.com', 'c@example.com'] }),
        ]),
      );
      expect(counts).toEqual({ inserted: 3, updated: 1 });
      expect(await emailsOf('a@example.com')).toEqual(['a@example.com', 'a2@example.com']);
      expect(await emailsOf('s@example.com')).toEqual(['s@example.com', 'b@example.com']);
      expect(await emailsOf('c@example.com')).toEqual(['c@example.com']);
    });

    it('finds by lower-case SHA-1 and MD5 of the normalised address', async () => {
      await people().upsert(peopleBatch([newPerson('jane', { emails: ['Jane.Doe@Example.com'] })]));
      const jane = await people().findByEmail('jane.doe@example.com');
      expect(jane).toBeDefined();
      expect(await people().findBySha1(sha1Hex('jane.doe@example.com'))).toEqual(jane);
      expect(await people().findByMd5(md5Hex('jane.doe@example.com'))).toEqual(jane);
      // Upper-case hex is the caller's job to fold.
      expect(await people().findBySha1(sha1Hex('jane.doe@example.com').toUpperCase())).toBeUndefined();
      expect(await people().findByMd5(sha1Hex('jane.doe@example.com'))).toBeUndefined();
      expect(await people().findBySha1('0'.repeat(40))).toBeUndefined();
    });

    it('finds 1,200 people in one batched call per identifier kind', async () => {
      const all = Array.from({ length: 1_200 }, (_, i) => newPerson(`p${i}`, { firstName: `F${i}` }));
      await people().upsert(peopleBatch(all));
      const emails = all.map((p) => p.emails[0]!);
      const unknown = ['nobody@example.com', 'ghost@example.com'];
      const byEmail = await people().findManyByEmail([...emails, ...unknown, emails[0]!]);
      expect(byEmail.size).toBe(1_200);
      expect(byEmail.get('p777@example.com')).toMatchObject({ firstName: 'F777', emails: ['p777@example.com'] });
      const bySha1 = await people().findManyBySha1([...emails, ...unknown].map(sha1Hex));
      expect(bySha1.size).toBe(1_200);
      expect(bySha1.get(sha1Hex('p1199@example.com'))?.firstName).toBe('F1199');
      const byMd5 = await people().findManyByMd5(emails.map(md5Hex));
      expect(byMd5.size).toBe(1_200);
      expect(byMd5.get(md5Hex('p0@example.com'))).toEqual(byEmail.get('p0@example.com'));
      expect((await people().findManyByEmail([])).size).toBe(0);
    });

    it('finds profiles by address, SHA-1 and MD5 in one call a kind, with the postal address only when asked', async () => {
      const all = Array.from({ length: 1_200 }, (_, i) =>
        newPerson(`q${i}`, {
          firstName: `F${i}`,
          emails: [`q${i}@example.com`, `alt${i}@example.org`],
          interests: ['pets'],
          fields: { age: '25-34' },
        }),
      );
      await people().upsert(peopleBatch(all));
      const unknown = ['nobody@example.com'];
      const byEmail = await people().findProfiles('email', [...all.map((p) => p.emails[1]!), ...unknown], false);
      expect(byEmail.size).toBe(1_200);
      const record = { json: JSON.stringify({ age: '25-34', zip: '62701', interests: { pets: true } }), fields: 3 };
      expect(byEmail.get('alt777@example.org')).toEqual({ email: 'alt777@example.org', profile: { record } });
      const bySha1 = await people().findProfiles('sha1', [sha1Hex('q5@example.com'), sha1Hex('nobody@example.com')], true);
      expect([...bySha1.keys()]).toEqual([sha1Hex('q5@example.com')]);
      const five = all[5]!;
      expect(bySha1.get(sha1Hex('q5@example.com'))).toEqual({
        email: 'q5@example.com',
        profile: {
          record,
          postal: { firstName: 'F5', lastName: five.lastName, address: five.address, city: five.city, state: five.state, zip: five.zip },
        },
      });
      const byMd5 = await people().findProfiles('md5', [md5Hex('alt9@example.org')], false);
      expect(byMd5.get(md5Hex('alt9@example.org'))?.email).toBe('alt9@example.org');
      expect((await people().findProfiles('email', [], true)).size).toBe(0);
    });

    it('finds the same mailbox written another way, as written first, never for a domain without a rule nor by hash', async () => {
      await people().upsert(
        peopleBatch([
          newPerson('jo', { emails: ['johnsmith@gmail.com', 'jo@yahoo.com'] }),
          newPerson('al', { emails: ['al.lee+shop@outlook.com'] }),
          newPerson('dot', { emails: ['j.o.h.n.smith@gmail.com'] }),
        ]),
      );
      // The exact spelling first: the dotted address is another person's row as written.
      expect(await findPeopleByEmail(people(), ['j.o.h.n.smith@gmail.com'])).toEqual(
        new Map([['j.o.h.n.smith@gmail.com', expect.objectContaining({ personKey: 'dot' })]]),
      );
      // Two people's addresses reach johnsmith@gmail.com: a third spelling names neither.
      expect((await findPeopleByEmail(people(), ['john.smith+news@googlemail.com'])).size).toBe(0);
      const found = await findPeopleByEmail(people(), ['al.lee@outlook.com', 'al.lee+x@outlook.com', 'allee@outlook.com', 'j.o@yahoo.com']);
      expect([...found].map(([email, p]) => [email, p.personKey, p.emails])).toEqual([
        ['al.lee@outlook.com', 'al', ['al.lee+shop@outlook.com']],
        ['al.lee+x@outlook.com', 'al', ['al.lee+shop@outlook.com']],
      ]);
      expect(await people().findBySha1(sha1Hex('al.lee@outlook.com'))).toBeUndefined();
      const profiles = await findProfilesByEmail(people(), ['al.lee@outlook.com', 'allee@outlook.com'], true);
      expect([...profiles].map(([email, p]) => [email, p.email, p.profile.postal?.lastName])).toEqual([
        ['al.lee@outlook.com', 'al.lee+shop@outlook.com', 'Doe'],
      ]);
      // One person holding two spellings of a mailbox is found once, with each address once.
      await people().upsert(peopleBatch([newPerson('dot', { emails: ['j.o.h.n.smith@gmail.com', 'john.smith@gmail.com'] })]));
      await people().upsert(peopleBatch([newPerson('jo', { emails: ['jo@yahoo.com'] })]));
      const one = await findPeopleByEmail(people(), ['johnsmith+x@gmail.com']);
      expect(one.get('johnsmith+x@gmail.com')).toMatchObject({
        personKey: 'dot',
        emails: ['j.o.h.n.smith@gmail.com', 'john.smith@gmail.com'],
      });
      const profile = await findProfilesByEmail(people(), ['johnsmith+x@gmail.com'], false);
      expect(profile.get('johnsmith+x@gmail.com')?.email).toMatch(/^j.*smith@gmail\.com$/);
    });

    it("answers a moved address with its new owner's profile", async () => {
      await people().upsert(peopleBatch([newPerson('first', { emails: ['shared@example.com'], fields: { age: '18-24' } })]));
      await people().upsert(
        peopleBatch([newPerson('second', { firstName: 'Other', emails: ['shared@example.com'], fields: { age: '65+' } })]),
      );
      const found = await people().findProfiles('email', ['shared@example.com'], true);
      expect(found.get('shared@example.com')?.profile).toMatchObject({
        record: { json: JSON.stringify({ age: '65+', zip: '62701', interests: { books: true, travel: true } }), fields: 3 },
        postal: { firstName: 'Other' },
      });
    });

    it('matches name and address exactly after normalisation, with and without each optional part', async () => {
      await people().upsert(
        peopleBatch([
          newPerson('jane-home', { emails: ['jane@example.com', 'jd@example.org'] }),
          newPerson('john-home', { firstName: 'John', emails: [] }),
          newPerson('jane-chicago', { address: '400 Lake Shore Dr', city: 'Chicago', zip: '60611', emails: [] }),
          newPerson('jane-austin', { address: '12 Main St.', city: 'Austin', state: 'TX', zip: '78701', emails: [] }),
        ]),
      );
      const keys = async (q: NameAddressQuery) => (await lookupByNameAndAddress(people(), q)).map((p) => p.personKey);
      const jane = { firstName: 'Jane', lastName: 'Doe' };
      expect(await keys(jane)).toEqual(['jane-home', 'jane-chicago', 'jane-austin']);
      expect(await keys({ ...jane, zip5: '62701' })).toEqual(['jane-home']);
      expect(await keys({ ...jane, state: 'IL' })).toEqual(['jane-home', 'jane-chicago']);
      expect(await keys({ ...jane, city: 'Chicago' })).toEqual(['jane-chicago']);
      expect(await keys({ ...jane, address: '12 Main St.' })).toEqual(['jane-home', 'jane-austin']);
      expect(
        await keys({ firstName: ' JANE ', lastName: 'doe', address: '12  MAIN st', city: 'springfield', state: 'il', zip5: '62701' }),
      ).toEqual(['jane-home']);
      expect(await keys({ ...jane, address: '12 Main Street' })).toEqual([]);
      expect(await keys({ ...jane, zip5: '99999' })).toEqual([]);
      expect(await keys({ ...jane, address: '!!!' })).toEqual([]);
      expect(await keys({ ...jane, address: '', city: ' ' })).toEqual(['jane-home', 'jane-chicago', 'jane-austin']);
      expect(await keys({ firstName: '', lastName: 'Doe' })).toEqual([]);
      expect(await keys({ firstName: 'John', lastName: 'Doe', zip5: '62701' })).toEqual(['john-home']);
      const [home] = await lookupByNameAndAddress(people(), { ...jane, zip5: '62701' });
      expect(home?.emails).toEqual(['jane@example.com', 'jd@example.org']);
      expect((await lookupByNameAndAddress(people(), { firstName: 'John', lastName: 'Doe' }))[0]?.emails).toEqual([]);
    });

    it('loads a large batch in one call, then updates it', async () => {
      const all = Array.from({ length: 3_000 }, (_, i) =>
        newPerson(`k${i}`, { lastName: `Last${i % 50}`, emails: [`k${i}@example.com`, `k${i}@example.net`] }),
      );
      expect(await people().upsert(peopleBatch(all))).toEqual({ inserted: 3_000, updated: 0 });
      expect(await people().upsert(peopleBatch(all.map((p) => ({ ...p, city: 'Peoria' }))))).toEqual({ inserted: 0, updated: 3_000 });
      expect(await people().count()).toBe(3_000);
      expect(await people().findByEmail('k2999@example.net')).toMatchObject({ personKey: 'k2999', city: 'Peoria' });
      expect((await people().findManyByEmail(all.map((p) => p.emails[1]!))).size).toBe(3_000);
    });

    it('finds identity candidates by each blocking key, each person once, with emails', async () => {
      await people().upsert(
        peopleBatch([
          newPerson('jane', { address: '12 N. Main Street Apt 4', zip: '62701-1234', emails: ['jane@example.com', 'jd@example.org'] }),
          newPerson('joe', { firstName: 'Joe', address: '12 North Main St', zip: '62701' }),
          newPerson('smyth', { firstName: 'Ann', lastName: 'Smyth', address: '900 Oak Ave', zip: '62701-0001' }),
          newPerson('far', { address: '12 Main St', state: 'TX', zip: '73301' }),
        ]),
      );
      const keys = async (blocks: Parameters<ReturnType<typeof people>['findCandidates']>[0]) =>
        (await people().findCandidates(blocks)).map((p) => p.personKey).sort();
      expect(await keys([{ kind: 'zip-house', zip5: '62701', houseNumber: '12' }])).toEqual(['jane', 'joe']);
      expect(await keys([{ kind: 'state-house', state: 'TX', houseNumber: '12' }])).toEqual(['far']);
      // Smith and Smyth share a phonetic code: the block catches the spelling the street key can't.
      expect(await keys([{ kind: 'phonetic-zip', zip5: '62701', lastPhonetic: lastNamePhonetic('smith') }])).toEqual(['smyth']);
      expect(await keys([{ kind: 'phonetic-zip', zip5: '62702', lastPhonetic: lastNamePhonetic('smith') }])).toEqual([]);
      const all = await people().findCandidates([
        { kind: 'zip-house', zip5: '62701', houseNumber: '12' },
        { kind: 'state-house', state: 'IL', houseNumber: '12' },
        { kind: 'zip-house', zip5: '62701', houseNumber: '900' },
      ]);
      expect(all.map((p) => p.personKey).sort()).toEqual(['jane', 'joe', 'smyth']);
      expect(all.find((p) => p.personKey === 'jane')!.emails).toEqual(['jane@example.com', 'jd@example.org']);
      expect(await keys([])).toEqual([]);
    });

    it('re-keys blocking columns when an update changes the address', async () => {
      await people().upsert(peopleBatch([newPerson('jane', { address: '12 Main St' })]));
      await people().upsert(peopleBatch([newPerson('jane', { address: '40 Elm St' })]));
      expect(await people().findCandidates([{ kind: 'zip-house', zip5: '62701', houseNumber: '12' }])).toEqual([]);
      expect((await people().findCandidates([{ kind: 'zip-house', zip5: '62701', houseNumber: '40' }])).map((p) => p.personKey)).toEqual([
        'jane',
      ]);
    });

    it('reads blocking rows in id order and rewrites their columns and version (what re-deriving uses)', async () => {
      await people().upsert(
        peopleBatch([
          newPerson('a', { address: 'RD 12 PO 5' }),
          newPerson('b', { address: '40 Elm St', lastName: 'Smith' }),
          newPerson('c', { address: '7 Oak Ave' }),
        ]),
      );
      const all = await people().blockingRows(0, 10);
      expect(all.map((r) => [r.firstName, r.lastName, r.address, r.houseNumber])).toEqual([
        ['Jane', 'Doe', 'RD 12 PO 5', '5'],
        ['Jane', 'Smith', '40 Elm St', '40'],
        ['Jane', 'Doe', '7 Oak Ave', '7'],
      ]);
      expect(all[1]!.lastPhonetic).toBe(lastNamePhonetic('smith'));
      expect(all.map((r) => r.id)).toEqual([...all.map((r) => r.id)].sort((x, y) => x - y));
      expect((await people().blockingRows(all[0]!.id, 1)).map((r) => r.address)).toEqual(['40 Elm St']);
      expect(await people().blockingRows(all[2]!.id, 10)).toEqual([]);
      // As an older parser had stored it: no house number for a rural-delivery box.
      await people().setBlockingColumns([{ ...all[0]!, houseNumber: '', lastPhonetic: 'OLD' }]);
      expect(await people().findCandidates([{ kind: 'zip-house', zip5: '62701', houseNumber: '5' }])).toEqual([]);
      expect((await people().blockingRows(0, 1))[0]).toMatchObject({ houseNumber: '', lastPhonetic: 'OLD' });
      await people().setBlockingColumns([all[0]!]);
      expect((await people().findCandidates([{ kind: 'zip-house', zip5: '62701', houseNumber: '5' }])).map((p) => p.personKey)).toEqual([
        'a',
      ]);
      // A person whose address changed since the row was read keeps what the change wrote.
      await people().upsert(peopleBatch([newPerson('c', { address: '8 Oak Ave' })]));
      await people().setBlockingColumns([{ ...all[2]!, houseNumber: '7' }]);
      expect((await people().findCandidates([{ kind: 'zip-house', zip5: '62701', houseNumber: '8' }])).map((p) => p.personKey)).toEqual([
        'c',
      ]);
      expect(await people().findCandidates([{ kind: 'zip-house', zip5: '62701', houseNumber: '7' }])).toEqual([]);
      await people().setBlockingVersion(7);
      expect(await people().blockingVersion()).toBe(7);
      await people().setBlockingVersion(8);
      expect(await people().blockingVersion()).toBe(8);
    });
  });
}
