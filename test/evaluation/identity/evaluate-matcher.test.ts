import { describe, expect, it } from 'vitest';
import type { PersonRecord } from '../../../src/people/person.js';
import { generatePeople } from '../../../src/generate/people.js';
import { generateQueryVariants, type QueryExpectation, type QueryVariant, type VariantKind } from '../../../src/generate/query-variants.js';
import type { IdentityMatch, IdentityQuery } from '../../../src/identity/match/types.js';
import { evaluateMatcher, type EvaluatedMatcher } from './evaluate-matcher.js';
import { corpusUrl } from '../../fixtures/corpora.js';
import { loadNicknamePairs } from './nickname-corpus.js';

const person = (personKey: string): PersonRecord => ({
  id: Number(personKey.slice(1)),
  personKey,
  firstName: personKey,
  middleName: null,
  lastName: 'Test',
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  fields: {},
  interests: [],
  emails: [],
});
const ind = (key: string): IdentityMatch => ({ person: person(key), type: 'Individual', confidence: 0.9 });
const hh = (key: string): IdentityMatch => ({ person: person(key), type: 'Household', confidence: 0.5 });
const variant = (kind: VariantKind, first: string, expect: QueryExpectation): QueryVariant => ({
  query: { first, last: 'Test' },
  kind,
  expect,
  from: first,
});

/** P1, P2 live in H1; P3 in H2; P4 in H3. */
const households = new Map([
  ['P1', 'H1'],
  ['P2', 'H1'],
  ['P3', 'H2'],
  ['P4', 'H3'],
]);

/** Answers each query (by its `first`) from a table. */
function scripted(answers: Record<string, IdentityMatch[]>): EvaluatedMatcher {
  return { match: async (q: IdentityQuery) => answers[q.first] ?? [] };
}

describe('evaluateMatcher', () => {
  it('gives 100 % to a matcher that answers what each variant expects', async () => {
    const nicknames = loadNicknamePairs(corpusUrl('nickname_pairs.json'));
    const people = [...generatePeople({ count: 2000, seed: 'ev', today: '2026-11-22', activity: false })];
    const map = new Map(people.map((p) => [p.person.person_id, p.truth.householdId]));
    const variants = [...generateQueryVariants(people, { seed: 'ev', nicknames })];
    const byQuery = new Map(variants.map((v) => [v.query, v.expect]));
    const oracle: EvaluatedMatcher = {
      async match() {
        throw new Error('matchMany is preferred');
      },
      async matchMany(queries) {
        return queries.map((q) => {
          const { individual, household } = byQuery.get(q)!;
          const out: IdentityMatch[] = individual ? [ind(individual)] : [];
          for (const p of people)
            if (p.truth.householdId === household && p.person.person_id !== individual) out.push(hh(p.person.person_id));
          return out;
        });
      },
    };
    const report = await evaluateMatcher(oracle, variants, { households: map });
    expect(report.variants).toBe(variants.length);
    expect(report.correct.value).toBe(1);
    for (const s of [report.individual, report.household]) expect([s.precision.value, s.recall.value, s.f1]).toEqual([1, 1, 1]);
    expect(report.failures).toEqual([]);
    expect(report.kinds.map((k) => k.kind).sort()).toEqual([...new Set(variants.map((v) => v.kind))].sort());
  });

  it('counts wrong, missing and extra matches as worked out by hand', async () => {
    const variants = [
      variant('exact', 'a', { individual: 'P1', household: 'H1' }), // right, plus P2 as Household: all correct
      variant('nickname', 'b', { individual: 'P1', household: 'H1' }), // P3 instead: wrong Individual, household missed
      variant('household-unknown', 'c', { household: 'H1' }), // P2 as Household: correct
      variant('moved', 'd', {}), // P4 as Individual: wrong
      variant('stranger', 'e', {}), // nothing: correct
      variant('typo-last', 'f', { individual: 'P3', household: 'H2' }), // P3 as Household only: household found, individual missed
    ];
    const matcher = scripted({ a: [ind('P1'), hh('P2')], b: [ind('P3')], c: [hh('P2')], d: [ind('P4')], f: [hh('P3')] });
    const report = await evaluateMatcher(matcher, variants, { households, batchSize: 4 });

    // Individual matches returned: a:P1 ✓, b:P3 ✗, d:P4 ✗ → 1/3. Expecting one: a ✓ b ✗ f ✗ → 1/3.
    expect(report.individual.precision).toEqual({ hits: 1, total: 3, value: 1 / 3 });
    expect(report.individual.recall).toEqual({ hits: 1, total: 3, value: 1 / 3 });
    expect(report.individual.f1).toBeCloseTo(1 / 3);
    // Household matches: a:P2 ✓, c:P2 ✓, f:P3 ✓ → 3/3. Expecting one: a ✓ b ✗ c ✓ f ✓ → 3/4.
    expect(report.household.precision).toEqual({ hits: 3, total: 3, value: 1 });
    expect(report.household.recall).toEqual({ hits: 3, total: 4, value: 0.75 });
    expect(report.household.f1).toBeCloseTo((2 * 0.75) / 1.75);
    expect(report.correct).toEqual({ hits: 3, total: 6, value: 0.5 });

    expect(report.failures.map((f) => [f.from, f.problems])).toEqual([
      ['b', ['missed Individual P1', 'wrong Individual P3 (H2)', 'missed household H1']],
      ['d', ['wrong Individual P4 (H3)']],
      ['f', ['missed Individual P3 (returned as Household)']],
    ]);
    const moved = report.kinds.find((k) => k.kind === 'moved')!;
    expect(moved.individual.precision).toEqual({ hits: 0, total: 1, value: 0 });
    expect(moved.individual.recall).toEqual({ hits: 0, total: 0, value: null });
    expect(moved.individual.f1).toBeNull();
    const stranger = report.kinds.find((k) => k.kind === 'stranger')!;
    expect([stranger.correct.value, stranger.individual.precision.value, stranger.household.precision.value]).toEqual([1, null, null]);
  });

  it('calls a Household match outside the expected household wrong, and one for a variant expecting nobody', async () => {
    const variants = [variant('exact', 'a', { individual: 'P1', household: 'H1' }), variant('stranger', 'b', {})];
    const report = await evaluateMatcher(scripted({ a: [ind('P1'), hh('P3')], b: [hh('P2')] }), variants, { households });
    expect(report.household.precision).toEqual({ hits: 0, total: 2, value: 0 });
    // The Individual match still finds the household.
    expect(report.household.recall).toEqual({ hits: 1, total: 1, value: 1 });
    expect(report.household.f1).toBe(0);
    expect(report.failures.map((f) => f.problems)).toEqual([['wrong Household P3 (H2)'], ['wrong Household P2 (H1)']]);
  });

  it('batches matchMany calls and keeps only the first failures', async () => {
    const sizes: number[] = [];
    const matcher: EvaluatedMatcher = {
      match: () => Promise.reject(new Error('unused')),
      async matchMany(queries) {
        sizes.push(queries.length);
        return queries.map(() => [ind('P4')]);
      },
    };
    const variants = Array.from({ length: 25 }, (_, i) =>
      variant(i % 2 ? 'exact' : 'zip5', `q${i}`, { individual: 'P1', household: 'H1' }),
    );
    const report = await evaluateMatcher(matcher, variants, { households, batchSize: 10, maxFailures: 4, failuresPerKind: 2 });
    expect(sizes).toEqual([10, 10, 5]);
    expect(report.failures.map((f) => f.from)).toEqual(['q0', 'q1', 'q2', 'q3']);
    expect(report.kinds.map((k) => [k.kind, k.variants, k.failures.map((f) => f.from)])).toEqual([
      ['zip5', 13, ['q0', 'q2']],
      ['exact', 12, ['q1', 'q3']],
    ]);
  });

  it('rejects a matcher that answers another number of queries', async () => {
    const matcher: EvaluatedMatcher = { match: () => Promise.resolve([]), matchMany: () => Promise.resolve([]) };
    await expect(evaluateMatcher(matcher, [variant('exact', 'a', {})], { households })).rejects.toThrow(/answered 0 of 1/);
  });
});
