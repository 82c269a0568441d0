// The typo distance from one typed name (`gmial`) to every popular one at once, each within its
// own allowance: a name out of reach is answered Infinity, most of them by the letter bound
// (letter-bound.ts) without filling a table.

import { prepareIntended, typoCostWithin, UNITS, type Intended } from './distance.js';
import { lettersOf, TypedLetters, type Letters } from './letter-bound.js';

export interface PreparedName {
  readonly intended: Intended;
  readonly letters: Letters;
  /** Costs above this are of no interest (reported as Infinity). */
  readonly limit: number;
}

export function prepareName(name: string, limit: number): PreparedName {
  return { intended: prepareIntended(name), letters: lettersOf(name), limit };
}

const typedLetters = new TypedLetters();
let costs = new Float64Array(0);
/** Units a dropped or extra character costs at the least (0.5). */
const MIN_GAP_UNITS = 10;

/**
 * For each name, `typoCost(typed, name)` when within the name's limit, else Infinity. The array
 * is scratch space, valid until the next call.
 */
export function nameCosts(typed: string, names: readonly PreparedName[]): Float64Array {
  if (costs.length < names.length) costs = new Float64Array(names.length);
  typedLetters.clear();
  for (let i = 0; i < typed.length; i++) typedLetters.add(typed.charCodeAt(i));
  for (let k = 0; k < names.length; k++) {
    const name = names[k]!;
    const bound = Math.floor(name.limit * UNITS + 1e-6);
    const tooFar =
      Math.abs(typed.length - name.intended.codes.length) * MIN_GAP_UNITS > bound || typedLetters.lowerBound(name.letters) > bound;
    costs[k] = tooFar ? Infinity : typoCostWithin(typed, name.intended, name.limit);
  }
  return costs;
}
