// Typo distance: Damerau-Levenshtein (optimal string alignment) with costs shaped by how people
// mistype, so that `gnail` (n beside m) is nearer to `gmail` than `gxail`, and a doubled or dropped
// repeated letter (`gmaill`, `yaho`) is nearer than any other slip.
//
// Costs, from cheapest: a repeated letter typed once or twice (0.5); a neighbouring key (0.5); a
// stray key beside its neighbour (0.6); any other dropped or extra character, dots included, or
// two swapped characters (0.75); any other substitution (1). Substituting or swapping the first
// letter of a label costs 0.1 more: people rarely get a word's first letter wrong, which breaks
// ties such as `fe` → `fr` rather than `de`.

import { areAdjacentCodes } from './keyboard.js';

const DOT = 0x2e;
const FIRST_LETTER = 0.1;

// Rows of the DP table, reused across calls (the function is synchronous).
let rows = [new Float64Array(16), new Float64Array(16), new Float64Array(16)];

/** Cost of `typed` standing for `intended`; 0 when equal. Meant for short strings (domain names). */
export function typoCost(typed: string, intended: string): number {
  const n = typed.length;
  const m = intended.length;
  if (rows[0]!.length < m + 1) rows = [new Float64Array(m + 1), new Float64Array(m + 1), new Float64Array(m + 1)];
  const a = codes(typed);
  const b = codes(intended);
  const extra = a.map((_, i) => extraCost(a, i));
  const omitted = b.map((_, j) => omittedCost(b, j));
  let [prev2, prev, cur] = rows as [Float64Array, Float64Array, Float64Array];
  prev[0] = 0;
  for (let j = 1; j <= m; j++) prev[j] = prev[j - 1]! + omitted[j - 1]!;
  for (let i = 1; i <= n; i++) {
    const ca = a[i - 1]!;
    cur[0] = prev[0]! + extra[i - 1]!;
    for (let j = 1; j <= m; j++) {
      const cb = b[j - 1]!;
      let best = prev[j - 1]! + (ca === cb ? 0 : substitutionCost(ca, cb, b, j - 1));
      const del = prev[j]! + extra[i - 1]!;
      if (del < best) best = del;
      const ins = cur[j - 1]! + omitted[j - 1]!;
      if (ins < best) best = ins;
      if (i > 1 && j > 1 && ca === b[j - 2] && a[i - 2] === cb && ca !== cb) {
        // Moving a dot is not getting a letter wrong, so only letters pay the first-letter extra.
        const first = labelStart(b, j - 2) && ca !== DOT && cb !== DOT;
        const swap = prev2[j - 2]! + 0.75 + (first ? FIRST_LETTER : 0);
        if (swap < best) best = swap;
      }
      cur[j] = best;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.round(prev[m]! * 1000) / 1000;
}

function codes(s: string): number[] {
  const out = new Array<number>(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

function labelStart(s: readonly number[], i: number): boolean {
  return i === 0 || s[i - 1] === DOT;
}

function substitutionCost(typed: number, intended: number, b: readonly number[], j: number): number {
  // A dot for a neighbouring key is a misplaced label boundary, not a slip within a word.
  const adjacent = typed !== DOT && intended !== DOT && areAdjacentCodes(typed, intended);
  return (adjacent ? 0.5 : 1) + (labelStart(b, j) ? FIRST_LETTER : 0);
}

/** `a[i]` was typed but is not in the intended string. */
function extraCost(a: readonly number[], i: number): number {
  const c = a[i]!;
  const before = a[i - 1];
  const after = a[i + 1];
  if (c === before || c === after) return 0.5;
  if ((before !== undefined && areAdjacentCodes(c, before)) || (after !== undefined && areAdjacentCodes(c, after))) return 0.6;
  return 0.75;
}

/** `b[j]` was intended but not typed. */
function omittedCost(b: readonly number[], j: number): number {
  const c = b[j]!;
  return c === b[j - 1] || c === b[j + 1] ? 0.5 : 0.75;
}
