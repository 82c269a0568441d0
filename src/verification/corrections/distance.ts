// Typo distance: Damerau-Levenshtein (optimal string alignment) with costs shaped by how people
// mistype, so that `gnail` (n beside m) is nearer to `gmail` than `gxail`, and a doubled or dropped
// repeated letter (`gmaill`, `yaho`) is nearer than any other slip.
//
// Costs, from cheapest: a repeated letter typed once or twice (0.5); a neighbouring key (0.5); a
// stray key beside its neighbour (0.6); any other dropped or extra character, dots included, or
// two swapped characters (0.75); any other substitution (1). Substituting or swapping the first
// letter of a label costs 0.1 more: people rarely get a word's first letter wrong, which breaks
// ties such as `fe` → `fr` rather than `de`.
//
// This runs for every candidate of every invalid address, so the table works in whole units of
// 0.05 (every cost above is a multiple): integer sums are exact, and `units / 20` is the same
// number the float sums rounded to three decimals gave. What depends only on the intended string
// is prepared once per target (`prepareIntended`), and a bounded search stops as soon as two
// consecutive rows are past the bound: every later cell builds on one of them at a positive cost.

import { areAdjacentCodes } from './keyboard.js';

const DOT = 0x2e;
/** Cost units per 1.0 of typo cost. */
export const UNITS = 20;
const REPEATED = 10;
const NEIGHBOUR = 10;
const STRAY_NEIGHBOUR = 12;
const OTHER_GAP = 15;
const SWAP = 15;
const OTHER_KEY = 20;
const FIRST_LETTER = 2;

/** The intended side of the distance, prepared once: codes and what each position costs. */
export interface Intended {
  readonly text: string;
  readonly codes: Int32Array;
  /** Units for leaving out `codes[j]`. */
  readonly omitted: Int32Array;
  /** 1 where `codes[j]` starts a label (substituting it costs the first-letter extra). */
  readonly labelStart: Uint8Array;
  /** Units for typing `codes[j + 1], codes[j]` for `codes[j], codes[j + 1]`. */
  readonly swap: Int32Array;
}

export function prepareIntended(text: string): Intended {
  const m = text.length;
  const codes = new Int32Array(m);
  for (let j = 0; j < m; j++) codes[j] = text.charCodeAt(j);
  const omitted = new Int32Array(m);
  const labelStart = new Uint8Array(m);
  const swap = new Int32Array(m);
  for (let j = 0; j < m; j++) {
    const c = codes[j]!;
    omitted[j] = (j > 0 && codes[j - 1] === c) || (j + 1 < m && codes[j + 1] === c) ? REPEATED : OTHER_GAP;
    labelStart[j] = j === 0 || codes[j - 1] === DOT ? 1 : 0;
    // Moving a dot is not getting a letter wrong, so only letters pay the first-letter extra.
    swap[j] = SWAP + (labelStart[j] === 1 && c !== DOT && j + 1 < m && codes[j + 1] !== DOT ? FIRST_LETTER : 0);
  }
  return { text, codes, omitted, labelStart, swap };
}

// Units for typing one ASCII character for another, first-letter extra aside: the inner loop
// reads this instead of asking the keyboard.
const SUBSTITUTION = new Uint8Array(128 * 128);
for (let x = 0; x < 128; x++) {
  for (let y = 0; y < 128; y++) {
    // A dot for a neighbouring key is a misplaced label boundary, not a slip within a word.
    const adjacent = x !== DOT && y !== DOT && areAdjacentCodes(x, y);
    SUBSTITUTION[x * 128 + y] = x === y ? 0 : adjacent ? NEIGHBOUR : OTHER_KEY;
  }
}

/** Units for typing `typed` where `intended` was meant (0 when equal); `first`: 1 when it starts a label. */
function substitutionUnits(typed: number, intended: number, first: number): number {
  if (typed === intended) return 0;
  const base = typed < 128 && intended < 128 ? SUBSTITUTION[typed * 128 + intended]! : OTHER_KEY;
  return base + first * FIRST_LETTER;
}

/** Units for `c`, typed between `before` and `after` (-1: none), not being in the intended string. */
function extraUnits(c: number, before: number, after: number): number {
  if (c === before || c === after) return REPEATED;
  if ((before !== -1 && areAdjacentCodes(c, before)) || (after !== -1 && areAdjacentCodes(c, after))) return STRAY_NEIGHBOUR;
  return OTHER_GAP;
}

// Scratch space, reused across calls (everything here is synchronous).
let typedCodes = new Int32Array(64);
let extra = new Int32Array(64);
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)] as const;

/** DP cells computed so far: lets tests bound the work hostile input can cause. */
let cells = 0;
export function distanceWork(): number {
  return cells;
}

/** Cost of `typed` standing for `intended`; 0 when equal. Meant for short strings (domain names). */
export function typoCost(typed: string, intended: string): number {
  return typoCostWithin(typed, prepareIntended(intended), Infinity);
}

/**
 * `typoCost(typed, intended.text)` when it is at most `limit`; otherwise some number above
 * `limit` (Infinity), found without finishing the table when possible.
 */
export function typoCostWithin(typed: string, intended: Intended, limit: number): number {
  const n = typed.length;
  const m = intended.codes.length;
  const bound = limit === Infinity ? Infinity : Math.floor(limit * UNITS + 1e-6);
  // Each character of length difference is a dropped or extra one: at least 0.5.
  if (Math.abs(n - m) * REPEATED > bound) return Infinity;
  if (typedCodes.length < n) {
    typedCodes = new Int32Array(n * 2);
    extra = new Int32Array(n * 2);
  }
  if (rows[0].length < m + 1) rows = [new Int32Array(m * 2 + 1), new Int32Array(m * 2 + 1), new Int32Array(m * 2 + 1)];
  const a = typedCodes;
  for (let i = 0; i < n; i++) a[i] = typed.charCodeAt(i);
  for (let i = 0; i < n; i++) extra[i] = extraUnits(a[i]!, i > 0 ? a[i - 1]! : -1, i + 1 < n ? a[i + 1]! : -1);
  const { codes: b, omitted, labelStart, swap } = intended;
  let prev2 = rows[0];
  let prev = rows[1];
  let cur = rows[2];
  prev[0] = 0;
  for (let j = 1; j <= m; j++) prev[j] = prev[j - 1]! + omitted[j - 1]!;
  let prevMin = 0;
  let done = 0;
  for (let i = 1; i <= n; i++) {
    const ca = a[i - 1]!;
    const ex = extra[i - 1]!;
    let rowMin = (cur[0] = prev[0]! + ex);
    for (let j = 1; j <= m; j++) {
      const cb = b[j - 1]!;
      let best = prev[j - 1]! + substitutionUnits(ca, cb, labelStart[j - 1]!);
      const del = prev[j]! + ex;
      if (del < best) best = del;
      const ins = cur[j - 1]! + omitted[j - 1]!;
      if (ins < best) best = ins;
      if (i > 1 && j > 1 && ca === b[j - 2] && a[i - 2] === cb && ca !== cb) {
        const swapped = prev2[j - 2]! + swap[j - 2]!;
        if (swapped < best) best = swapped;
      }
      cur[j] = best;
      if (best < rowMin) rowMin = best;
    }
    const spare = prev2;
    prev2 = prev;
    prev = cur;
    cur = spare;
    done = i;
    if (rowMin > bound && prevMin > bound) break;
    prevMin = rowMin;
  }
  cells += done * m;
  if (done < n) return Infinity;
  const units = prev[m]!;
  return units > bound ? Infinity : units / UNITS;
}
