// Repairs of a domain ending that cannot be right, keeping the name: `example.con` → .com,
// `gmailc.om` → gmail.com, `examplecom` → example.com, `example.co.br` → example.com.br,
// `example.com.com` → example.com.

import { typoCost } from './distance.js';
import { byRank } from './rank.js';
import {
  COMMON_SUFFIXES,
  hasImpossibleSecondLevel,
  intendedSecondLevel,
  isRegistryLabel,
  publicSuffix,
  SUSPECT_TLDS,
  suffixWeight,
  type SuffixState,
} from './suffixes.js';

export interface Variant {
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

/** The domain with its ending as it should be: itself (cost 0) when fine, else the repairs. */
export function endingVariants(domain: string, state: Exclude<SuffixState, 'leave'>): Variant[] {
  if (state === 'fine') return [{ domain, cost: 0, weight: suffixWeight(domain) }];
  if (state === 'tld') return tldRepairs(domain);
  const meant = intendedSecondLevel(domain);
  if (meant === null) return [];
  const fixed = [...domain.split('.').slice(0, -2), meant.suffix].join('.');
  return [{ domain: fixed, cost: meant.cost, weight: suffixWeight(fixed) }];
}

/**
 * Repairs of an invalid or suspect TLD: the cheapest ways to end the domain with a common suffix.
 * The cut may fall before the last dot (a misplaced dot: `gmailc.om`, `comcastn.et`; or several
 * labels: `example.co.ul`) or inside the last label when that splits off a registry ending
 * (`example.comar` → example.com.ar) or, for a dotless domain, a whole TLD (`examplecom`).
 */
function tldRepairs(domain: string): Variant[] {
  const found = new Map<string, Variant>();
  const lastDot = domain.lastIndexOf('.');
  const tld = domain.slice(lastDot + 1);
  const suspect = lastDot === -1 ? undefined : SUSPECT_TLDS.get(tld);
  // `.c` stopped short of `.com`; but in `example.co.k` the `k` follows a registry label, and
  // the registry's own endings (co.uk) are the candidates, not every TLD starting with k.
  const truncatable = lastDot !== -1 && !isRegistryLabel(domain.slice(domain.lastIndexOf('.', lastDot - 1) + 1, lastDot));
  for (const suffix of COMMON_SUFFIXES.keys()) {
    const target = `.${suffix}`;
    // Every extra character costs at least 0.5, so longer tails cannot be within reach.
    const from = Math.max(1, domain.length - target.length - 3);
    for (let i = from; i < domain.length; i++) {
      const head = domain.slice(0, i);
      if (head.endsWith('.') || head.endsWith('-')) continue;
      const tail = domain.slice(i);
      let cost: number;
      if (i > lastDot) {
        // Inside the last label: only a missing dot.
        const splitsOff =
          lastDot === -1 ? tail === suffix && head.length >= 2 : COMMON_SUFFIXES.has(`${domain.slice(lastDot + 1, i)}.${suffix}`);
        if (!splitsOff) continue;
        cost = typoCost(tail, target);
      } else if (suspect !== undefined && i === lastDot) {
        // A real TLD: only its usual meaning, and never as cheaply as an invalid one.
        if (suffix !== suspect) continue;
        cost = Math.max(typoCost(tail, target), 1);
      } else if (truncatable && i === lastDot && !suffix.includes('.') && suffix.startsWith(tld) && suffix !== tld) {
        cost = TRUNCATED_TLD_COST;
      } else {
        cost = typoCost(tail, target);
        if (domain[i] !== '.' && (cost > MISPLACED_DOT_COST || i - head.lastIndexOf('.') - 1 < 2)) continue;
      }
      if (cost === 0 || cost > MAX_SUFFIX_COST) continue;
      const fixed = head + target;
      const seen = found.get(fixed);
      if ((seen !== undefined && seen.cost <= cost) || hasImpossibleSecondLevel(fixed)) continue;
      found.set(fixed, { domain: fixed, cost, weight: suffixWeight(fixed) });
    }
  }
  const ranked = [...found.values()].map((v) => ({ ...v, tier: 1 })).sort(byRank);
  return ranked.slice(0, MAX_REPAIRS).map(({ domain: d, cost, weight }) => ({ domain: d, cost, weight }));
}

const REPEATABLE_TLDS: ReadonlySet<string> = new Set(['com', 'net', 'org', 'edu', 'gov', 'info', 'biz']);

/**
 * `example.com.com`, `example.con.com` → example.com: the TLD typed twice, once mistyped. Only
 * the generic TLDs typed in full: `x.cc.cd` or `x.kro.kr` are names, and `example.com.co` is a
 * registry ending of its own.
 */
export function repeatedTld(domain: string): Variant | null {
  const labels = domain.split('.');
  if (labels.length < 3) return null;
  const tld = labels[labels.length - 1] as string;
  const before = labels[labels.length - 2] as string;
  if (!REPEATABLE_TLDS.has(tld) || before.length < 3 || publicSuffix(domain) !== tld) return null;
  const cost = typoCost(before, tld);
  if (cost > 0.75) return null;
  const fixed = [...labels.slice(0, -2), tld].join('.');
  return { domain: fixed, cost: 0.5 + cost, weight: suffixWeight(fixed) };
}
