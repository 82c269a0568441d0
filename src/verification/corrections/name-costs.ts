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

/** For each name, `typoCost(typed, name)` when within the name's limit, else Infinity. */
export function nameCosts(typed: string, names: readonly PreparedName[]): Float64Array {
  const out = new Float64Array(names.length);
  typedLetters.clear();
  for (let i = 0; i < typed.length; i++) typedLetters.add(typed.charCodeAt(i));
  for (let k = 0; k < names.length; k++) {
    const name = names[k]!;
    const tooFar = typedLetters.lowerBound(name.letters) > Math.floor(name.limit * UNITS + 1e-6);
    out[k] = tooFar ? Infinity : typoCostWithin(typed, name.intended, name.limit);
  }
  return out;
}
