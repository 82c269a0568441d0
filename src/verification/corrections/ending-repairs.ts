// Repairs of a domain ending that cannot be right, keeping the name: `example.con` → .com,
// `gmailc.om` → gmail.com, `examplecom` → example.com, `example.co.br` → example.com.br,
// `example.com.com` → example.com.

import { prepareIntended, typoCostWithin } from './distance.js';
import { intendedSecondLevel, publicSuffix, suffixWeight, type SuffixState } from './suffixes.js';
import { tldRepairs } from './tld-repairs.js';

export interface Variant {
  domain: string;
  cost: number;
  weight: number;
}

/** The domain with its ending as it should be: itself (cost 0) when fine, else the repairs. */
export function endingVariants(domain: string, state: Exclude<SuffixState, 'leave'>): Variant[] {
  if (state === 'fine') return [{ domain, cost: 0, weight: suffixWeight(domain) }];
  if (state === 'tld') return tldRepairs(domain);
  const meant = intendedSecondLevel(domain);
  if (meant === null) return [];
  const fixed = [...domain.split('.').slice(0, -2), meant.suffix].join('.');
  return [{ domain: fixed, cost: meant.cost, weight: suffixWeight(fixed) }];
}

const REPEATABLE_TLDS = new Map(['com', 'net', 'org', 'edu', 'gov', 'info', 'biz'].map((tld) => [tld, prepareIntended(tld)]));
/** The repeated TLD may be mistyped by one slip. */
const MAX_REPEAT_COST = 0.75;

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
  const repeatable = REPEATABLE_TLDS.get(tld);
  if (repeatable === undefined || before.length < 3 || publicSuffix(domain) !== tld) return null;
  const cost = typoCostWithin(before, repeatable, MAX_REPEAT_COST);
  if (cost > MAX_REPEAT_COST) return null;
  const fixed = [...labels.slice(0, -2), tld].join('.');
  return { domain: fixed, cost: 0.5 + cost, weight: suffixWeight(fixed) };
}
