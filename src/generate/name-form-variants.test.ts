import { describe, expect, it } from 'vitest';
import { corpusUrl } from '../../test/fixtures/corpora.js';
import { loadNicknamePairs } from '../../test/evaluation/identity/nickname-corpus.js';
import { generateNameFormHouseholds, NAME_FORM_HOUSEHOLD_KINDS, PARTICLE_SURNAMES } from './name-form-households.js';
import { generateNameFormVariants } from './name-form-variants.js';
import { generatePeople, type GeneratedPerson } from './people.js';
import { editDistance, exactQuery, key } from './query-edits.js';
import { generateQueryVariants, NAME_FORM_KINDS, type QueryVariant } from './query-variants.js';

const nicknames = loadNicknamePairs(corpusUrl('nickname_pairs.json'));
const TODAY = '2026-11-22';
const people = [...generatePeople({ count: 3000, seed: 'nf', today: TODAY, activity: false })];
const households = [...generateNameFormHouseholds({ seed: 'nf', households: 180, today: TODAY })];
const variants = [...generateNameFormVariants(people, households, { seed: 'nf', nicknames })];
const members = households.flatMap((h) => h.members);
const byId = new Map<string, GeneratedPerson>([...people, ...members].map((p) => [p.person.person_id, p]));
const householdOf = new Map<string, (typeof households)[number]>(households.flatMap((h) => h.members.map((m) => [m.person.person_id, h])));
const ofKind = (kind: string) => variants.filter((v) => v.kind === kind);
const source = (v: QueryVariant) => byId.get(v.from)!;
const words = (last: string) => last.split(/[-\s]+/);

describe('generateNameFormHouseholds', () => {
  it('is deterministic, and makes every kind of household with its own ids and no email', () => {
    const again = [...generateNameFormHouseholds({ seed: 'nf', households: 180, today: TODAY })];
    expect(JSON.stringify(again)).toBe(JSON.stringify(households));
    expect(new Set(households.map((h) => h.kind))).toEqual(new Set(NAME_FORM_HOUSEHOLD_KINDS));
    for (const m of members) {
      expect(m.person.person_id).toMatch(/^N\d{7}$/);
      expect(m.person.emails).toEqual([]);
    }
    expect(new Set(members.map((m) => m.person.person_id)).size).toBe(members.length);
  });

  it('puts each household at one address of its own', () => {
    const place = (p: GeneratedPerson) => `${p.person.address}|${p.person.zip}`;
    const homes = new Set<string>();
    for (const h of households) {
      expect(new Set(h.members.map(place)).size).toBe(1);
      homes.add(place(h.members[0]!));
    }
    expect(homes.size).toBe(households.length);
  });

  it('writes the names each kind promises', () => {
    for (const h of households) {
      const [a, b] = h.members as [GeneratedPerson, GeneratedPerson];
      if (h.kind === 'compound') for (const m of h.members) expect(words(m.person.last_name)).toHaveLength(2);
      if (h.kind === 'particle') for (const m of h.members) expect(PARTICLE_SURNAMES).toContain(m.person.last_name);
      if (h.kind === 'married') expect(words(b.person.last_name)).toEqual([expect.any(String), a.person.last_name]);
      if (h.kind === 'swap-pair') expect([b.person.first_name, b.person.last_name]).toEqual([a.person.last_name, a.person.first_name]);
      if (h.kind === 'same-names') {
        expect([b.person.first_name, b.person.middle_name]).toEqual([a.person.first_name, a.person.middle_name]);
        expect([a.person.last_name.endsWith(' Sr'), b.person.last_name.endsWith(' Jr')]).toEqual([true, true]);
      }
      if (h.kind === 'middle-first') expect(b.person.first_name).toBe(a.person.middle_name);
      // Nobody else's first name is within two edits of a member's.
      for (const m of h.members.slice(2))
        for (const o of h.members) if (o !== m) expect(editDistance(key(m.person.first_name), key(o.person.first_name))).toBeGreaterThan(2);
    }
  });
});

describe('generateNameFormVariants', () => {
  it('is deterministic and leaves the other variants and the records as they were', () => {
    expect(JSON.stringify([...generateNameFormVariants(people, households, { seed: 'nf', nicknames })])).toBe(JSON.stringify(variants));
    const before = JSON.stringify([...generateQueryVariants(people, { seed: 'nf', nicknames })]);
    expect(JSON.stringify([...generateQueryVariants(people, { seed: 'nf', nicknames })])).toBe(before);
    expect(JSON.stringify([...generatePeople({ count: 3000, seed: 'nf', today: TODAY, activity: false })])).toBe(JSON.stringify(people));
  });

  it('makes every kind, a share of the people one variant each', () => {
    for (const kind of NAME_FORM_KINDS) expect(ofKind(kind).length, kind).toBeGreaterThan(15);
    const main = variants.filter((v) => v.from.startsWith('P'));
    expect(new Set(main.map((v) => v.from)).size).toBe(main.length);
    expect(main.length / people.length).toBeGreaterThan(0.15);
    expect(main.length / people.length).toBeLessThan(0.3);
  });

  it('changes only what each kind names', () => {
    const check: Record<string, (v: QueryVariant, p: GeneratedPerson) => void> = {
      swapped: (v, p) => {
        expect([v.query.first, v.query.last]).toEqual([p.person.last_name, p.person.first_name]);
        expect(v.query.zip).toBe(p.person.zip);
        expect(v.expect).toEqual({ individual: p.person.person_id, household: p.truth.householdId });
      },
      'middle-name': (v, p) => {
        expect(v.query.first).toBe(p.person.middle_name);
        if (v.query.middle !== undefined) expect(v.query.middle).toBe(p.person.first_name[0]);
        expect(v.query.last).toBe(p.person.last_name);
      },
      'double-surname': (v, p) => {
        expect(words(v.query.last)).toHaveLength(2);
        expect(words(v.query.last)).toContain(p.person.last_name);
        expect(v.expect.individual).toBe(p.person.person_id);
      },
      'surname-part': (v, p) => {
        expect(words(p.person.last_name)).toContain(v.query.last);
        expect(v.query.first).toBe(p.person.first_name);
      },
      'surname-particle': (v, p) => expect(p.person.last_name.endsWith(` ${v.query.last}`)).toBe(true),
      'surname-joined': (v, p) => {
        expect(v.query.last).not.toBe(p.person.last_name);
        expect(key(v.query.last)).toBe(key(p.person.last_name));
      },
      'trap-swap': (v, p) => {
        const other = householdOf.get(p.person.person_id)!.members.find((m) => m !== p)!;
        const swapped = v.query.first === p.person.last_name;
        expect(v.expect.individual).toBe((swapped ? other : p).person.person_id);
      },
    };
    for (const v of variants) {
      check[v.kind]?.(v, source(v));
      const { first, middle, last, ...place } = v.query;
      const stored = exactQuery(source(v).person);
      expect(place.street === undefined || place.street === stored.street).toBe(true);
      expect([first, last].every((n) => n.trim() !== '')).toBe(true);
      expect(middle === undefined || middle.trim() !== '').toBe(true);
    }
  });

  it('expects the household only where two members fit alike, and the stronger reading elsewhere', () => {
    const same = ofKind('trap-same-names');
    expect(same.filter((v) => v.expect.individual === undefined).length).toBeGreaterThan(10);
    for (const v of same.filter((v) => v.expect.individual === undefined)) expect(v.query.last).not.toMatch(/ (Sr|Jr)$/);
    for (const v of ofKind('trap-middle-first')) {
      const [parent, child] = householdOf.get(v.from)!.members as [GeneratedPerson, GeneratedPerson];
      expect(v.expect.individual).toBe(
        (v.query.first === child.person.first_name && v.query.middle === undefined ? child : parent).person.person_id,
      );
    }
  });
});
