/**
 * The precision property of issue 30: in generated households, a query whose first name is one
 * letter away from a resident's — another resident's name, or another common first name — never
 * comes back as the Individual for somebody whose name it is not.
 *
 * The common names are the generator's (src/generate/data: the SSA and Census lists); two of them
 * are two names unless a person would call them one: the nickname corpus links them (`Jon`/`John`),
 * or the truth set's table of spellings holds them (sameNameJudge). The matcher's own variant rule
 * is not consulted, so a change that joins another pair of names fails here.
 *
 * Run by near-name-property.test.ts (10,000 households) and `npm run eval:identity` (≥ 100,000).
 */
import fc from 'fast-check';
import { SPELLING_GROUPS } from '../../../src/generate/name-spellings.js';
import { nameLists } from '../../../src/generate/reference-data.js';
import { editDistance } from '../../../src/generate/query-edits.js';
import { giveWayToHousemates } from '../../../src/identity/match/housemates.js';
import { rankMatches } from '../../../src/identity/match/rank.js';
import { scoreCandidate } from '../../../src/identity/match/score.js';
import { oakStreetFeatures, oakStreetPerson } from '../../helpers/identity-candidates.js';

export interface NearNamePair {
  /** The resident's first name. */
  name: string;
  /** One letter away from it, and another name. */
  other: string;
}

export type SameName = (a: string, b: string) => boolean;

/**
 * Whether a person would call two lower-case first names one: equal, nicknames, or spellings of
 * one name in the truth set's table (src/generate/name-spellings.ts, written by hand).
 */
export function sameNameJudge(nicknames: readonly (readonly [string, string])[]): SameName {
  const spellings = SPELLING_GROUPS.flatMap((group) => group.flatMap((a) => group.map((b) => [a.toLowerCase(), b.toLowerCase()] as const)));
  const same = new Set([...nicknames, ...spellings].flatMap(([a, b]) => [`${a}/${b}`, `${b}/${a}`]));
  return (a, b) => a === b || same.has(`${a}/${b}`);
}

/** Every ordered pair of common first names one edit apart that are two names. */
export function nearNamePairs(same: SameName): NearNamePair[] {
  const lists = nameLists();
  const names = [...new Set([...lists.female, ...lists.male].map((n) => n.toLowerCase()))];
  const pairs: NearNamePair[] = [];
  for (const name of names) {
    for (const other of names) {
      if (!same(name, other) && editDistance(name, other) === 1) pairs.push({ name, other });
    }
  }
  return pairs;
}

export interface NearNameCase {
  pair: NearNamePair;
  /** First names of the others at the address (the other name among them, or not). */
  housemates: string[];
  /** Middle names, in member order: the resident first, then the housemates. */
  middles: string[];
  queryMiddle: string;
}

/**
 * Households around a pair: the resident, up to three others, middle names or initials. No
 * resident's middle name is the query's name (or a nickname of it): somebody who goes by the
 * middle name is named by it (`Terry` for Perry Theresa), rightly.
 */
export function nearNameCases(pairs: readonly NearNamePair[], same: SameName): fc.Arbitrary<NearNameCase> {
  const lists = nameLists();
  const common = [...lists.female, ...lists.male].map((n) => n.toLowerCase());
  const middle = fc.oneof(fc.constant(''), fc.constantFrom(...'abcdefghijklmnoprstw'), fc.constantFrom(...common));
  return fc
    .record({
      pair: fc.constantFrom(...pairs),
      others: fc.uniqueArray(fc.constantFrom(...common), { maxLength: 3 }),
      otherLives: fc.boolean(),
      middles: fc.array(middle, { minLength: 5, maxLength: 5 }),
      queryMiddle: fc.oneof(fc.constant(''), fc.constantFrom(...'abcdefghijklmnoprstw')),
    })
    .map(({ pair, others, otherLives, middles, queryMiddle }) => {
      const housemates = others.filter((n) => n !== pair.name && n !== pair.other);
      if (otherLives) housemates.push(pair.other);
      const kept = middles.slice(0, housemates.length + 1).map((m) => (same(m, pair.other) ? '' : m));
      return { pair, housemates, middles: kept, queryMiddle };
    });
}

/**
 * The people the matcher named as the Individual for the case's query whose first name is not the
 * query's, nor one a person would call the same (an empty list is the property holding).
 */
export function wrongIndividuals(c: NearNameCase, same: SameName): string[] {
  const members = [c.pair.name, ...c.housemates];
  const query = oakStreetFeatures(c.pair.other, c.queryMiddle);
  const scored = [];
  for (const [i, first] of members.entries()) {
    const f = oakStreetFeatures(first, c.middles[i] ?? '');
    const score = scoreCandidate(query, f);
    if (score !== undefined) scored.push({ person: oakStreetPerson(i, first), features: f, score });
  }
  giveWayToHousemates(query, scored);
  return rankMatches(scored)
    .filter((m) => m.type === 'Individual' && !same(m.person.firstName, c.pair.other))
    .map((m) => `${c.pair.other} → ${m.person.firstName}`);
}

/** Checks `runs` households; throws fast-check's report (with the counterexample) on a failure. */
export function checkNearNamePrecision(same: SameName, runs: number, seed?: number): void {
  fc.assert(
    fc.property(nearNameCases(nearNamePairs(same), same), (c) => wrongIndividuals(c, same).length === 0),
    { numRuns: runs, ...(seed === undefined ? {} : { seed }) },
  );
}
