// Repairs of an invalid or suspect TLD: the cheapest ways to end the domain with a common suffix.
// The cut may fall before the last dot (a misplaced dot: `gmailc.om`, `comcastn.et`; or several
// labels: `example.co.ul`) or inside the last label when that splits off a registry ending
// (`example.comar` → example.com.ar) or, for a dotless domain, a whole TLD (`examplecom`).
//
// Every cut near the end is weighed against every common ending (about a hundred), so each pair
// first meets the letter bound (letter-bound.ts): the typo distance is computed only for the few
// that could be within reach.

import { prepareIntended, typoCostWithin, UNITS, type Intended } from './distance.js';
import { lettersOf, TypedLetters, type Letters } from './letter-bound.js';
import { sortedByRank } from './rank.js';
import { COMMON_SUFFIXES, hasImpossibleSecondLevel, isRegistryLabel, SUSPECT_TLDS, suffixWeight } from './suffixes.js';

export interface Repair {
  domain: string;
  cost: number;
  weight: number;
}

/** Most a repair of the ending may cost: `comme` → `com` (1.25) is about the limit of a slip. */
const MAX_SUFFIX_COST = 1.5;
/** Typing stopped before the end of the TLD (`.c`, `.ed`, `.r`): one slip, and the prior picks. */
const TRUNCATED_TLD_COST = 0.5;
/** Cutting into a name (`gmailc.om`) is only believable as one dot typed one place off. */
const MISPLACED_DOT_COST = 0.75;
/** Repairs kept for the search towards popular domains; the rest are never offered anyway. */
const MAX_REPAIRS = 8;

interface Ending {
  suffix: string;
  /** `.com` for `com`. */
  target: Intended;
  letters: Letters;
  /** Longest tail within reach: every extra character costs at least 0.5. */
  reach: number;
  hasDot: boolean;
}

const ENDINGS: readonly Ending[] = [...COMMON_SUFFIXES.keys()].map((suffix) => {
  const text = `.${suffix}`;
  return { suffix, target: prepareIntended(text), letters: lettersOf(text), reach: text.length + 3, hasDot: suffix.includes('.') };
});
const BY_SUFFIX = new Map(ENDINGS.map((e) => [e.suffix, e]));
const LONGEST_TAIL = Math.max(...ENDINGS.map((e) => e.reach));
/** Endings by length: a tail reaches only those within a few characters of its own length. */
const BY_LENGTH: readonly Ending[][] = Array.from({ length: LONGEST_TAIL + 1 }, (_, m) =>
  ENDINGS.filter((e) => e.target.text.length === m),
);

/** `com` → {com.ar, com.au, …}: the endings a last label `comar` may split into. */
const SPLITS = new Map<string, Ending[]>();
for (const e of ENDINGS) {
  if (!e.hasDot) continue;
  const label = e.suffix.slice(0, e.suffix.indexOf('.'));
  // Only endings of their own split off: `comve` is not com.ve, `ve` not being a common ending.
  const rest = BY_SUFFIX.get(e.suffix.slice(label.length + 1));
  if (rest !== undefined) SPLITS.set(label, [...(SPLITS.get(label) ?? []), rest]);
}

/** The least a dropped or extra character costs. */
const MIN_EDIT = 0.5;
const DOT = 0x2e;
const HYPHEN = 0x2d;
const tail = new TypedLetters();

export function tldRepairs(domain: string): Repair[] {
  const found = new Map<string, Repair>();
  const len = domain.length;
  const lastDot = domain.lastIndexOf('.');
  const tld = domain.slice(lastDot + 1);
  const suspect = lastDot === -1 ? undefined : SUSPECT_TLDS.get(tld);
  // `.c` stopped short of `.com`; but in `example.co.k` the `k` follows a registry label, and
  // the registry's own endings (co.uk) are the candidates, not every TLD starting with k.
  const truncatable = lastDot !== -1 && !isRegistryLabel(domain.slice(domain.lastIndexOf('.', lastDot - 1) + 1, lastDot));

  // Cuts from the end, the tail's letters growing with them.
  tail.clear();
  for (let i = len - 1; i >= Math.max(1, len - LONGEST_TAIL); i--) {
    tail.add(domain.charCodeAt(i));
    const k = len - i;
    const before = domain.charCodeAt(i - 1);
    if (before === DOT || before === HYPHEN) continue;
    if (i > lastDot) {
      // Inside the last label: only a missing dot, before a registry ending (`example.com|ar`)
      // or, without any dot, before a whole one (`example|com`).
      const endings = lastDot === -1 ? atEnd(domain, i) : SPLITS.get(domain.slice(lastDot + 1, i));
      for (const e of endings ?? []) if (k <= e.reach) offer(found, domain, i, e, tailCost(domain, i, e, MAX_SUFFIX_COST));
    } else if (i === lastDot && suspect !== undefined) {
      // A real TLD: only its usual meaning, and never as cheaply as an invalid one.
      const e = BY_SUFFIX.get(suspect)!;
      if (k <= e.reach) offer(found, domain, i, e, Math.max(tailCost(domain, i, e, MAX_SUFFIX_COST), 1));
    } else {
      // Cutting into a label must leave two characters of it and be a single slip.
      const inLabel = i !== lastDot && domain.charCodeAt(i) !== DOT;
      if (inLabel && i - domain.lastIndexOf('.', i - 1) - 1 < 2) continue;
      const limit = inLabel ? MISPLACED_DOT_COST : MAX_SUFFIX_COST;
      // Each character of length difference costs at least 0.5: only endings within `slack`
      // characters of the tail's length can be in reach (which keeps to `reach` as well).
      const slack = Math.floor(limit / MIN_EDIT);
      for (let m = Math.max(1, k - slack); m <= Math.min(k + slack, LONGEST_TAIL); m++) {
        for (const e of BY_LENGTH[m]!) {
          const truncated = truncatable && i === lastDot && !e.hasDot && e.suffix.startsWith(tld) && e.suffix !== tld;
          offer(found, domain, i, e, truncated ? TRUNCATED_TLD_COST : tailCost(domain, i, e, limit));
        }
      }
    }
  }
  const ranked = sortedByRank(Array.from(found.values(), (v) => ({ domain: v.domain, cost: v.cost, weight: v.weight, tier: 1 })));
  const out: Repair[] = [];
  for (let n = 0; n < ranked.length && n < MAX_REPAIRS; n++) {
    const { domain: d, cost, weight } = ranked[n]!;
    out.push({ domain: d, cost, weight });
  }
  return out;
}

/** Records `domain.slice(0, i)` + ending at `cost`, unless out of reach or a cheaper way is known. */
function offer(found: Map<string, Repair>, domain: string, i: number, ending: Ending, cost: number): void {
  if (cost === 0 || cost > MAX_SUFFIX_COST) return;
  const fixed = domain.slice(0, i) + ending.target.text;
  const seen = found.get(fixed);
  if ((seen !== undefined && seen.cost <= cost) || hasImpossibleSecondLevel(fixed)) return;
  found.set(fixed, { domain: fixed, cost, weight: suffixWeight(fixed) });
}

/** `typoCost(domain.slice(i), ending)` when at most `limit` (the tail's letters are in `tail`), else Infinity. */
function tailCost(domain: string, i: number, ending: Ending, limit: number): number {
  if (tail.lowerBound(ending.letters) > Math.floor(limit * UNITS + 1e-6)) return Infinity;
  return typoCostWithin(domain.slice(i), ending.target, limit);
}

/** For a dotless domain: the ending that is all of `domain.slice(i)`, when the name keeps two characters. */
function atEnd(domain: string, i: number): Ending[] | undefined {
  const e = i >= 2 ? BY_SUFFIX.get(domain.slice(i)) : undefined;
  return e === undefined ? undefined : [e];
}
