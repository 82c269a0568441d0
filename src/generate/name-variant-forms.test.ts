import { describe, expect, it } from 'vitest';
import { corpusUrl } from '../../test/fixtures/corpora.js';
import { loadNicknamePairs } from '../../test/evaluation/identity/nickname-corpus.js';
import { generateNameFormHouseholds } from './name-form-households.js';
import { generateNameFormVariants } from './name-form-variants.js';
import { NEAR_NAME_PAIRS } from './name-variant-households.js';
import { generateNameVariants } from './name-variant-forms.js';
import { NAME_VARIANT_KINDS } from './name-variant-kinds.js';
import { sameSpelling } from './name-spellings.js';
import { generatePeople, type GeneratedPerson } from './people.js';
import { editDistance, key } from './query-edits.js';

const nicknames = loadNicknamePairs(corpusUrl('nickname_pairs.json'));
const TODAY = '2026-11-22';
const people = [...generatePeople({ count: 3000, seed: 'nv', today: TODAY, activity: false })];
const households = [...generateNameFormHouseholds({ seed: 'nv', households: 240, today: TODAY })];
const variants = [
  ...generateNameVariants(people, { seed: 'nv', nicknames }),
  ...generateNameFormVariants(people, households, { seed: 'nv', nicknames }),
];
const byId = new Map<string, GeneratedPerson>([...people, ...households.flatMap((h) => h.members)].map((p) => [p.person.person_id, p]));
const ofKind = (kind: string) => variants.filter((v) => v.kind === kind);

describe('the name-form variants of issue 30', () => {
  it('makes every kind, the same on every run', () => {
    for (const kind of NAME_VARIANT_KINDS) expect(ofKind(kind).length, kind).toBeGreaterThan(10);
    const again = [...generateNameVariants(people, { seed: 'nv', nicknames })];
    expect(JSON.stringify(again)).toBe(JSON.stringify(variants.slice(0, again.length)));
  });

  it('puts a title before the first name and a suffix after the last, expecting the person', () => {
    for (const v of ofKind('title')) {
      const p = byId.get(v.from)!.person;
      expect(v.query.first).toMatch(new RegExp(`^(Mr|Mrs|Ms|MR|Miss|Dr|Rev|Prof)\\.? ${p.first_name}( [A-Z])?$`));
      expect(v.expect.individual).toBe(p.person_id);
    }
    for (const v of ofKind('suffix')) {
      const p = byId.get(v.from)!.person;
      expect(v.query.last).toMatch(/,? (Jr|JR|Sr|II|III|IV|2nd|3rd)\.?$/);
      // A suffix that conflicts with a stored Sr/Jr is another person.
      expect(v.expect.individual === undefined).toBe(/ (Sr|Jr)$/.test(p.last_name));
    }
  });

  it('spells the first name another way from the table, and expects the person', () => {
    for (const v of ofKind('spelling-variant')) {
      const p = byId.get(v.from)!.person;
      expect(key(v.query.first)).not.toBe(key(p.first_name));
      expect(sameSpelling(v.query.first, p.first_name)).toBe(true);
      expect(v.expect.individual).toBe(p.person_id);
    }
  });

  it('makes near names one letter from the person’s, nobody’s in the household, expecting the household only', () => {
    for (const v of ofKind('near-name')) {
      const item = byId.get(v.from)!;
      expect(editDistance(key(v.query.first), key(item.person.first_name))).toBe(1);
      expect(sameSpelling(v.query.first, item.person.first_name)).toBe(false);
      expect(v.expect).toEqual({ household: item.truth.householdId });
      const mates = people.filter((m) => m.truth.householdId === item.truth.householdId);
      for (const m of mates) expect(editDistance(key(m.person.first_name), key(v.query.first))).toBeGreaterThan(m === item ? 0 : 1);
    }
  });

  it('builds the near-name and double-first households and asks each member by name', () => {
    const near = households.filter((h) => h.kind === 'near-names');
    expect(near.length).toBeGreaterThan(10);
    for (const h of near) {
      const [a, b] = h.members.map((m) => m.person.first_name);
      expect(NEAR_NAME_PAIRS.some(([x, , y]) => x === a && y === b)).toBe(true);
    }
    for (const v of ofKind('trap-near-names')) expect(v.expect.individual).toBe(v.from);
    for (const v of ofKind('double-first')) {
      const p = byId.get(v.from)!.person;
      expect(v.query.first).not.toBe(p.first_name);
      expect(key(v.query.first)).toBe(key(p.first_name));
      expect(v.expect.individual).toBe(p.person_id);
    }
  });
});
