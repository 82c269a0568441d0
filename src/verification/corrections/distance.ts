// Typo distance: Damerau-Levenshtein (optimal string alignment) with costs shaped by how people
// mistype, so that `gnail` (n beside m) is nearer to `gmail` than `gxail`, and a doubled or dropped
// repeated letter (`gmaill`, `yaho`) is nearer than any other slip.
//
// Costs, from cheapest: a dot dropped or added, a repeated letter typed once or twice (0.5); a
// neighbouring key (0.5); a stray key beside its neighbour (0.6); any other dropped or extra
// character, or two swapped characters (0.75); any other substitution (1). Substituting or swapping
// the first letter of a label costs 0.1 more: people rarely get a word's first letter wrong, which
// breaks ties such as `fe` → `fr` rather than `de`.

import { areAdjacentKeys } from './keyboard.js';

const DOT = '.';
const FIRST_LETTER = 0.1;

/** Cost of `typed` standing for `intended`; 0 when equal. Inputs are short (domain names). */
export function typoCost(typed: string, intended: string): number {
  const a = typed;
  const b = intended;
  const n = a.length;
  const m = b.length;
  // Rows i-2, i-1 and i of the DP table, each m+1 wide.
  let prev2 = new Float64Array(m + 1);
  let prev = new Float64Array(m + 1);
  let cur = new Float64Array(m + 1);
  for (let j = 1; j <= m; j++) prev[j] = prev[j - 1]! + omitted(b, j - 1);
  for (let i = 1; i <= n; i++) {
    cur[0] = prev[0]! + extra(a, i - 1);
    for (let j = 1; j <= m; j++) {
      const ca = a[i - 1] as string;
      const cb = b[j - 1] as string;
      let best = prev[j - 1]! + (ca === cb ? 0 : substitution(ca, cb, b, j - 1));
      best = Math.min(best, prev[j]! + extra(a, i - 1), cur[j - 1]! + omitted(b, j - 1));
      if (i > 1 && j > 1 && ca === b[j - 2] && a[i - 2] === cb && ca !== cb) {
        best = Math.min(best, prev2[j - 2]! + 0.75 + (labelStart(b, j - 2) ? FIRST_LETTER : 0));
      }
      cur[j] = best;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.round(prev[m]! * 1000) / 1000;
}

function labelStart(s: string, i: number): boolean {
  return i === 0 || s[i - 1] === DOT;
}

function substitution(typed: string, intended: string, b: string, j: number): number {
  const base = typed !== DOT && intended !== DOT && areAdjacentKeys(typed, intended) ? 0.5 : 1;
  return base + (labelStart(b, j) ? FIRST_LETTER : 0);
}

/** `a[i]` was typed but is not in the intended string. */
function extra(a: string, i: number): number {
  const c = a[i] as string;
  if (c === DOT) return 0.5;
  const before = a[i - 1];
  const after = a[i + 1];
  if (c === before || c === after) return 0.5;
  if ((before !== undefined && areAdjacentKeys(c, before)) || (after !== undefined && areAdjacentKeys(c, after))) return 0.6;
  return 0.75;
}

/** `b[j]` was intended but not typed. */
function omitted(b: string, j: number): number {
  const c = b[j] as string;
  if (c === DOT) return 0.5;
  if (c === b[j - 1] || c === b[j + 1]) return 0.5;
  return 0.75;
}
