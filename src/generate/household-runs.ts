/** Small helpers the query-variant generators share. */
import type { IdentityQuery } from '../identity/match/types.js';
import type { GeneratedPerson } from './people.js';
import { key } from './query-edits.js';
import type { VariantKind } from './query-kinds.js';
import type { QueryExpectation, QueryVariant } from './query-variants.js';
import type { Rng } from './random.js';

/** The members of each household in turn, for people whose households arrive one after another (as generatePeople yields them). */
export function* householdRuns(people: Iterable<GeneratedPerson>): Generator<GeneratedPerson[]> {
  let current: GeneratedPerson[] = [];
  for (const item of people) {
    if (current.length > 0 && current[0]!.truth.householdId !== item.truth.householdId) {
      yield current;
      current = [];
    }
    current.push(item);
  }
  if (current.length > 0) yield current;
}

/** `[name, nickname]` pairs as an index from a name's key to its nicknames' and formal names' keys. */
export function nicknameKeys(pairs: readonly (readonly [string, string])[]): Map<string, Set<string>> {
  const index = new Map<string, Set<string>>();
  for (const [a, b] of pairs) {
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      let set = index.get(key(x));
      if (set === undefined) index.set(key(x), (set = new Set()));
      set.add(key(y));
    }
  }
  return index;
}

/** The person themself: the Individual, in their household. */
export function expectSelf(item: GeneratedPerson): QueryExpectation {
  return { individual: item.person.person_id, household: item.truth.householdId };
}

/**
 * The first of `kinds`, drawn in random order, whose builder makes a query (a builder gives
 * `undefined` for a person it does not fit): the variant for person `from`, or none.
 */
export function drawVariant<K extends VariantKind>(
  rng: Rng,
  kinds: [K, () => [IdentityQuery, QueryExpectation] | undefined][],
  from: string,
): QueryVariant | undefined {
  const left = [...kinds];
  while (left.length > 0) {
    const [kind, build] = left.splice(rng.below(left.length), 1)[0]!;
    const built = build();
    if (built !== undefined) return { query: built[0], kind, expect: built[1], from };
  }
  return undefined;
}
