/** Jaro–Winkler similarity (talisman; standard prefix scale 0.1, boost threshold 0.7). */
import talismanJaroWinkler from 'talisman/metrics/jaro-winkler.js';
import { limited } from 'talisman/metrics/damerau-levenshtein.js';

/**
 * In [0, 1]: 1 for equal strings (two empty ones included), 0 when exactly one is empty.
 * Compares UTF-16 code units as given; normalise names first.
 */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  if (a === '' || b === '') return 0;
  // Jaro's greedy match walks the shorter (on a tie, the first) string against the other; a fixed
  // argument order makes symmetry (which scoring relies on) a guarantee rather than a property of
  // that walk.
  const [x, y] = a < b ? [a, b] : [b, a];
  const score = talismanJaroWinkler.similarity(x, y);
  return Math.min(1, Math.max(0, score));
}

/**
 * One slip of the keyboard: the same first letter (people rarely mistype it, and a different one
 * is usually another name), at least four letters, and one substitution, insertion, deletion or
 * swap of neighbours apart. Jaro–Winkler misses `Jojn`/`John` (0.87) yet passes
 * `Michael`/`Michelle` (0.92) and `Frank`/`Franklin` (0.93): a typo test for names needs the edit.
 */
export function oneSlipApart(a: string, b: string): boolean {
  if (a === b || a[0] !== b[0] || Math.min(a.length, b.length) < 4) return false;
  return limited(1, a, b) === 1;
}
