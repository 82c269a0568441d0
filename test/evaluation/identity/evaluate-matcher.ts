/**
 * How well a matcher finds what query variants with known truth expect (generate/query-variants):
 * precision, recall and F1 for Individual and for Household matches, overall and per kind, and
 * the first failures to read.
 *
 * - Individual precision: returned Individual matches that are the expected person / all returned
 *   Individual matches (a variant expecting nobody makes each of its Individual matches wrong).
 *   Recall: variants expecting a person that got them as an Individual match / such variants.
 * - Household precision: returned Household matches whose person lives in the expected household
 *   / all returned Household matches. Recall: variants expecting a household that got one
 *   Household match in it, or the expected person as an Individual match / such variants.
 * - A person's household comes from the generator's truth (`person_id` → `householdId`, keyed by
 *   the stored `personKey`, which an import of generated records sets to `person_id`): stored
 *   records do not carry it, and inferring it from the address is the matcher's job.
 */
import type { QueryExpectation, QueryVariant } from '../../../src/generate/query-variants.js';
import type { IdentityMatch, IdentityQuery, MatchType } from '../../../src/identity/match/types.js';

/** What the evaluation needs of a matcher: `matchMany` is used when present. */
export interface EvaluatedMatcher {
  match(query: IdentityQuery): Promise<IdentityMatch[]>;
  matchMany?(queries: readonly IdentityQuery[]): Promise<IdentityMatch[][]>;
}

export interface EvaluationOptions {
  /** `personKey` (the generated `person_id`) → `householdId`, from the generator's truth. */
  households: ReadonlyMap<string, string>;
  /** Failures kept overall, in variant order. Default 25. */
  maxFailures?: number;
  /** Failures kept for each kind. Default 3. */
  failuresPerKind?: number;
  /** Queries per `matchMany` call (or per round of concurrent `match` calls). Default 500. */
  batchSize?: number;
}

export interface Rate {
  hits: number;
  total: number;
  /** hits / total; null when total is 0. */
  value: number | null;
}

export interface TypeScores {
  precision: Rate;
  recall: Rate;
  /** Harmonic mean of the two; null when either is null. */
  f1: number | null;
}

export interface ReturnedMatch {
  personKey: string;
  type: MatchType;
  confidence: number;
  household?: string;
}

export interface EvaluationFailure {
  kind: string;
  from: string;
  query: IdentityQuery;
  expect: QueryExpectation;
  /** `missed Individual P1`, `wrong Individual P7 (H5)`, `wrong Household P9 (H8)`, `missed household H1`. */
  problems: string[];
  got: ReturnedMatch[];
}

export interface KindReport {
  kind: string;
  variants: number;
  /** Variants answered exactly as expected: no wrong match, nothing expected missed. */
  correct: Rate;
  individual: TypeScores;
  household: TypeScores;
  failures: EvaluationFailure[];
}

export interface EvaluationReport {
  variants: number;
  correct: Rate;
  individual: TypeScores;
  household: TypeScores;
  /** In order of first appearance. */
  kinds: KindReport[];
  failures: EvaluationFailure[];
}

/** Raw counts; rates are computed once at the end. */
class Tally {
  variants = 0;
  correct = 0;
  individualReturned = 0;
  individualRight = 0;
  individualExpected = 0;
  individualFound = 0;
  householdReturned = 0;
  householdRight = 0;
  householdExpected = 0;
  householdFound = 0;
  readonly failures: EvaluationFailure[] = [];
}

export async function evaluateMatcher(
  matcher: EvaluatedMatcher,
  variants: Iterable<QueryVariant>,
  options: EvaluationOptions,
): Promise<EvaluationReport> {
  const batchSize = options.batchSize ?? 500;
  const maxFailures = options.maxFailures ?? 25;
  const perKind = options.failuresPerKind ?? 3;
  const all = new Tally();
  const kinds = new Map<string, Tally>();

  const judgeBatch = async (batch: QueryVariant[]) => {
    const queries = batch.map((v) => v.query);
    const results = matcher.matchMany ? await matcher.matchMany(queries) : await Promise.all(queries.map((q) => matcher.match(q)));
    if (results.length !== batch.length) throw new Error(`the matcher answered ${results.length} of ${batch.length} queries`);
    batch.forEach((variant, i) => {
      let kind = kinds.get(variant.kind);
      if (kind === undefined) kinds.set(variant.kind, (kind = new Tally()));
      const failure = judge(variant, results[i]!, options.households, [all, kind]);
      if (failure === undefined) return;
      if (all.failures.length < maxFailures) all.failures.push(failure);
      if (kind.failures.length < perKind) kind.failures.push(failure);
    });
  };

  let batch: QueryVariant[] = [];
  for (const variant of variants) {
    batch.push(variant);
    if (batch.length >= batchSize) {
      await judgeBatch(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await judgeBatch(batch);

  return {
    ...summarise(all),
    kinds: [...kinds].map(([kind, tally]) => ({ kind, ...summarise(tally), failures: tally.failures })),
    failures: all.failures,
  };
}

/** Adds one variant's outcome to every tally; returns its failure, if it is one. */
function judge(
  variant: QueryVariant,
  matches: IdentityMatch[],
  households: ReadonlyMap<string, string>,
  tallies: Tally[],
): EvaluationFailure | undefined {
  const { individual, household } = variant.expect;
  const problems: string[] = [];
  const got = matches.map((m): ReturnedMatch => {
    const h = households.get(m.person.personKey);
    return { personKey: m.person.personKey, type: m.type, confidence: m.confidence, ...(h !== undefined ? { household: h } : {}) };
  });
  const where = (m: ReturnedMatch) => `${m.personKey} (${m.household ?? 'no household'})`;

  let individualReturned = 0;
  let individualRight = 0;
  let householdReturned = 0;
  let householdRight = 0;
  for (const m of got) {
    if (m.type === 'Individual') {
      individualReturned++;
      if (individual !== undefined && m.personKey === individual) individualRight++;
      else problems.push(`wrong Individual ${where(m)}`);
    } else {
      householdReturned++;
      if (household !== undefined && m.household === household) householdRight++;
      else problems.push(`wrong Household ${where(m)}`);
    }
  }
  const individualFound = individualRight > 0;
  if (individual !== undefined && !individualFound) {
    const asHousehold = got.some((m) => m.type === 'Household' && m.personKey === individual);
    problems.unshift(`missed Individual ${individual}${asHousehold ? ' (returned as Household)' : ''}`);
  }
  const householdFound = householdRight > 0 || individualFound;
  if (household !== undefined && !householdFound) problems.push(`missed household ${household}`);

  for (const t of tallies) {
    t.variants++;
    if (problems.length === 0) t.correct++;
    t.individualReturned += individualReturned;
    t.individualRight += individualRight;
    t.householdReturned += householdReturned;
    t.householdRight += householdRight;
    if (individual !== undefined) {
      t.individualExpected++;
      if (individualFound) t.individualFound++;
    }
    if (household !== undefined) {
      t.householdExpected++;
      if (householdFound) t.householdFound++;
    }
  }
  if (problems.length === 0) return undefined;
  return { kind: variant.kind, from: variant.from, query: variant.query, expect: variant.expect, problems, got };
}

export function rate(hits: number, total: number): Rate {
  return { hits, total, value: total === 0 ? null : hits / total };
}

export function scores(precision: Rate, recall: Rate): TypeScores {
  const p = precision.value;
  const r = recall.value;
  const f1 = p === null || r === null ? null : p + r === 0 ? 0 : (2 * p * r) / (p + r);
  return { precision, recall, f1 };
}

function summarise(t: Tally): Omit<EvaluationReport, 'kinds' | 'failures'> {
  return {
    variants: t.variants,
    correct: rate(t.correct, t.variants),
    individual: scores(rate(t.individualRight, t.individualReturned), rate(t.individualFound, t.individualExpected)),
    household: scores(rate(t.householdRight, t.householdReturned), rate(t.householdFound, t.householdExpected)),
  };
}
