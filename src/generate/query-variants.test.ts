import { describe, expect, it } from 'vitest';
import { corpusUrl } from '../../test/fixtures/corpora.js';
import { loadNicknamePairs } from '../../test/evaluation/identity/nickname-corpus.js';
import { DIRECTIONALS, STREET_SUFFIXES } from './address.js';
import { generatePeople, type GeneratedPerson } from './people.js';
import { editDistance, exactQuery } from './query-edits.js';
import { generateQueryVariants, VARIANT_KINDS, type QueryVariant } from './query-variants.js';

// The public nickname corpus (test/fixtures/corpora), not the trimmed list the service ships.
const nicknames = loadNicknamePairs(corpusUrl('nickname_pairs.json'));
const people = [...generatePeople({ count: 5000, seed: 'qv', today: '2026-11-22', activity: false })];
const variants = [...generateQueryVariants(people, { seed: 'qv', nicknames })];
const byId = new Map(people.map((p) => [p.person.person_id, p]));
const membersOf = new Map<string, GeneratedPerson[]>();
for (const p of people) membersOf.set(p.truth.householdId, [...(membersOf.get(p.truth.householdId) ?? []), p]);

const key = (s: string) => s.toLowerCase().replace(/[^a-z]/g, '');
const street = (s: string) => s.toUpperCase().replace(/[.,]/g, '').replace(/\s+/g, ' ').trim();
const ofKind = (kind: string) => variants.filter((v) => v.kind === kind);
const source = (v: QueryVariant) => byId.get(v.from)!;
const related = new Set(nicknames.flatMap(([a, b]) => [`${a}|${b}`, `${b}|${a}`]));

describe('generateQueryVariants', () => {
  it('is deterministic, and another seed gives other variants', () => {
    const again = [...generateQueryVariants(people, { seed: 'qv', nicknames })];
    expect(JSON.stringify(again)).toBe(JSON.stringify(variants));
    const other = [...generateQueryVariants(people, { seed: 'other', nicknames })];
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(variants));
  });

  it('leaves the generated records unchanged', () => {
    const fresh = [...generatePeople({ count: 5000, seed: 'qv', today: '2026-11-22', activity: false })];
    expect(JSON.stringify(fresh)).toBe(JSON.stringify(people));
  });

  it('makes one variant a person by default and every kind at 2 % or more', () => {
    expect(variants.length).toBeGreaterThan(4950);
    expect(variants.length).toBeLessThanOrEqual(5000);
    for (const kind of VARIANT_KINDS)
      expect(ofKind(kind).length / variants.length, kind).toBeGreaterThan(kind === 'middle-full' ? 0.01 : 0.02);
  });

  it('makes several variants of different kinds a person with perPerson', () => {
    const many = [...generateQueryVariants(people.slice(0, 500), { seed: 'qv', nicknames, perPerson: 3 })];
    expect(many.length).toBeGreaterThan(1450);
    const kindsOf = new Map<string, string[]>();
    for (const v of many) kindsOf.set(v.from, [...(kindsOf.get(v.from) ?? []), v.kind]);
    for (const kinds of kindsOf.values()) expect(new Set(kinds).size).toBe(kinds.length);
    const some = [...generateQueryVariants(people, { seed: 'qv', nicknames, perPerson: 0.25 })];
    expect(some.length).toBeGreaterThan(1000);
    expect(some.length).toBeLessThan(1500);
  });

  it('expects the source person and household unless the kind says otherwise', () => {
    const elsewhere = new Set(['household-member', 'household-unknown', 'moved', 'stranger', 'wrong-address', 'first-initial']);
    for (const v of variants) {
      const p = source(v);
      if (!elsewhere.has(v.kind)) expect(v.expect).toEqual({ individual: p.person.person_id, household: p.truth.householdId });
    }
  });

  it('copies the record exactly for exact queries, and no one else has that name at that address', () => {
    const seen = new Map<string, number>();
    for (const p of people) {
      const k = `${key(p.person.first_name)}|${key(p.person.last_name)}|${street(p.person.address)}|${p.person.zip.slice(0, 5)}`;
      seen.set(k, (seen.get(k) ?? 0) + 1);
    }
    for (const v of ofKind('exact')) {
      const p = source(v).person;
      expect(v.query).toEqual({
        first: p.first_name,
        last: p.last_name,
        street: p.address,
        city: p.city,
        state: p.state,
        zip: p.zip,
        ...(p.middle_name ? { middle: p.middle_name } : {}),
      });
      expect(seen.get(`${key(p.first_name)}|${key(p.last_name)}|${street(p.address)}|${p.zip.slice(0, 5)}`)).toBe(1);
    }
  });

  it('changes only what each kind names', () => {
    const check: Record<string, (v: QueryVariant, p: GeneratedPerson) => void> = {
      nickname: (v, p) => expect(related.has(`${key(p.person.first_name)}|${key(v.query.first)}`)).toBe(true),
      'middle-initial': (v, p) => {
        expect(p.person.middle_name!.length).toBeGreaterThan(1);
        expect(v.query.middle!.replace('.', '')).toBe(p.person.middle_name![0]);
      },
      'middle-full': (v, p) => {
        expect(p.person.middle_name).toHaveLength(1);
        expect(v.query.middle!.length).toBeGreaterThan(1);
        expect(v.query.middle![0]).toBe(p.person.middle_name);
      },
      'middle-missing': (v, p) => {
        expect(p.person.middle_name).toBeDefined();
        expect(v.query.middle).toBeUndefined();
      },
      'street-spelled-out': (v, p) => {
        const spelled = v.query
          .street!.split(' ')
          .filter((w) => Object.values(STREET_SUFFIXES).includes(w) || Object.values(DIRECTIONALS).includes(w));
        expect(spelled.length).toBeGreaterThan(0);
        expect(v.query.street!.startsWith(p.truth.street.number)).toBe(true);
      },
      'no-unit': (v, p) => {
        expect(p.truth.street.unitType).toBeDefined();
        expect(p.person.address.startsWith(`${v.query.street!} ${p.truth.street.unitType}`)).toBe(true);
      },
      zip5: (v, p) => expect(v.query.zip).toBe(p.person.zip.slice(0, 5)),
      'no-zip': (v, p) => {
        expect(v.query.zip).toBeUndefined();
        expect([v.query.street, v.query.city, v.query.state]).toEqual([p.person.address, p.person.city, p.person.state]);
      },
      'zip4-no-street': (v, p) => {
        expect([v.query.street, v.query.city, v.query.state]).toEqual([undefined, undefined, undefined]);
        expect(v.query.zip).toBe(p.person.zip);
      },
      noise: (v, p) => {
        expect(v.query).not.toEqual(exactQuery(p.person));
        expect(key(v.query.first)).toBe(key(p.person.first_name));
        expect(key(v.query.last)).toBe(key(p.person.last_name));
        expect(street(v.query.street!)).toBe(street(p.person.address));
        expect(v.query.zip!.replace(/\D/g, '')).toBe(p.person.zip.replace('-', ''));
      },
      'typo-first': (v, p) =>
        expect([v.query.first[0], editDistance(key(v.query.first), key(p.person.first_name))]).toEqual([p.person.first_name[0], 1]),
      'typo-last': (v, p) =>
        expect([v.query.last[0], editDistance(key(v.query.last), key(p.person.last_name))]).toEqual([p.person.last_name[0], 1]),
      'typo-street': (v, p) => {
        expect(v.query.street).not.toBe(p.person.address);
        expect(editDistance(v.query.street!.toLowerCase(), p.person.address.toLowerCase())).toBe(1);
      },
      'first-initial': (v, p) => {
        expect(v.query).toEqual({ ...exactQuery(p.person), middle: undefined, first: v.query.first });
        expect(v.query.first.replace('.', '')).toBe(p.person.first_name[0]!.toUpperCase());
        const shared = membersOf.get(p.truth.householdId)!.some((m) => m !== p && m.person.first_name[0] === p.person.first_name[0]);
        expect(v.expect).toEqual(
          shared ? { household: p.truth.householdId } : { individual: p.person.person_id, household: p.truth.householdId },
        );
      },
      'household-member': (v, p) => {
        const member = byId.get(v.expect.individual!)!;
        expect(member.person.person_id).not.toBe(p.person.person_id);
        expect(v.expect.household).toBe(p.truth.householdId);
        expect(member.truth.householdId).toBe(p.truth.householdId);
        expect([v.query.first, v.query.last, v.query.street, v.query.zip]).toEqual([
          member.person.first_name,
          member.person.last_name,
          member.person.address,
          member.person.zip,
        ]);
      },
      'household-unknown': (v, p) => {
        expect(v.expect).toEqual({ household: p.truth.householdId });
        expect([v.query.last, v.query.street]).toEqual([p.person.last_name, p.person.address]);
        for (const m of membersOf.get(p.truth.householdId)!) {
          expect(editDistance(key(v.query.first), key(m.person.first_name))).toBeGreaterThan(2);
          // Not a middle name either: `Robert Smith` at John Robert Smith's is John by his middle name.
          if ((m.person.middle_name ?? '').length > 1)
            expect(editDistance(key(v.query.first), key(m.person.middle_name!))).toBeGreaterThan(2);
        }
      },
      moved: (v, p) => {
        expect(v.expect).toEqual({});
        expect([v.query.first, v.query.last]).toEqual([p.person.first_name, p.person.last_name]);
        expect(v.query.street).not.toBe(p.person.address);
      },
      stranger: (v, p) => {
        expect(v.expect).toEqual({});
        expect(v.query.street).toBe(p.person.address);
        expect(editDistance(key(v.query.last), key(p.person.last_name))).toBeGreaterThan(2);
      },
      'wrong-address': (v, p) => {
        expect(v.expect).toEqual({});
        const there = people.find((o) => o.person.address === v.query.street && o.person.zip === v.query.zip)!;
        expect(there.truth.householdId).not.toBe(p.truth.householdId);
        expect(editDistance(key(there.person.last_name), key(p.person.last_name))).toBeGreaterThan(2);
      },
    };
    for (const v of variants) check[v.kind]?.(v, source(v));
  });

  it('makes first-initial variants of both expectations', () => {
    const initials = ofKind('first-initial');
    expect(initials.filter((v) => v.expect.individual === undefined).length).toBeGreaterThan(3);
    expect(initials.filter((v) => v.expect.individual !== undefined).length).toBeGreaterThan(100);
  });

  it('never gives a first-name variant that another member of the household could answer', () => {
    for (const v of variants.filter((v) => ['nickname', 'typo-first'].includes(v.kind))) {
      const p = source(v);
      for (const m of membersOf.get(p.truth.householdId)!) {
        if (m === p) continue;
        expect(editDistance(key(v.query.first), key(m.person.first_name))).toBeGreaterThan(1);
      }
    }
  });
});
