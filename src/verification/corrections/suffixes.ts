// The endings a mistyped domain is corrected towards, and what counts as a broken ending.
//
// Targets are the TLDs and second-level registries that carry most mail, with rough popularity
// weights (relative, .com = 1000; our order-of-magnitude estimates from registry sizes, only their
// order matters) used to break ties: a bare `c` completes to `com`, not `ca`.

import { getPublicSuffix } from 'tldts';
import { isIcannTld, RESERVED_TLDS } from '../tld.js';
import { prepareIntended, typoCostWithin, type Intended } from './distance.js';

// prettier-ignore
export const COMMON_SUFFIXES: ReadonlyMap<string, number> = new Map([
  ['com', 1000], ['net', 150], ['org', 100], ['edu', 30], ['gov', 20], ['mil', 3], ['info', 10],
  ['biz', 5], ['io', 5], ['co', 5], ['me', 3], ['us', 8], ['eu', 5], ['uk', 1],
  ['de', 60], ['ru', 50], ['fr', 40], ['it', 30], ['nl', 20], ['es', 20], ['pl', 20], ['ca', 20],
  ['be', 10], ['ch', 10], ['at', 10], ['se', 10], ['dk', 8], ['no', 6], ['fi', 6], ['ie', 5],
  ['pt', 8], ['cz', 8], ['sk', 3], ['hu', 6], ['ro', 6], ['gr', 6], ['bg', 2], ['hr', 2], ['si', 2],
  ['rs', 2], ['lt', 2], ['lv', 2], ['ee', 2], ['ua', 5], ['by', 2], ['kz', 2], ['tr', 3], ['il', 1],
  ['in', 10], ['cn', 10], ['jp', 3], ['kr', 2], ['tw', 2], ['hk', 2], ['sg', 3], ['my', 1], ['vn', 2],
  ['id', 1], ['ph', 1], ['th', 1], ['nz', 1], ['za', 1], ['au', 1], ['br', 2], ['mx', 3], ['ar', 2],
  ['cl', 4], ['pe', 2],
  ['co.uk', 40], ['org.uk', 5], ['ac.uk', 8], ['gov.uk', 3],
  ['com.au', 15], ['net.au', 3], ['org.au', 2], ['edu.au', 3], ['gov.au', 2],
  ['co.nz', 6], ['co.za', 8], ['co.in', 5], ['ac.in', 2], ['co.il', 5], ['ac.il', 2],
  ['co.jp', 15], ['ne.jp', 3], ['ac.jp', 2], ['co.kr', 5], ['com.tw', 5], ['com.hk', 3], ['com.sg', 3],
  ['com.my', 2], ['co.th', 2], ['co.id', 2], ['com.cn', 5], ['edu.cn', 2], ['com.tr', 5], ['com.ua', 2],
  ['com.br', 30], ['net.br', 3], ['org.br', 2], ['edu.br', 3], ['gov.br', 3],
  ['com.mx', 10], ['gob.mx', 2], ['edu.mx', 2], ['com.ar', 8], ['gob.ar', 1], ['edu.ar', 1],
  ['com.co', 3], ['com.pe', 2], ['com.ve', 1],
]);

/**
 * Real country TLDs that see far more mistyped `.com`/`.net` than mail: Cameroon (`.cm`) and Oman
 * (`.om`) are the classic typo-squatting cases for `.com`, Niger (`.ne`) and Ethiopia (`.et`) for
 * `.net`. We correct them, as fnando/email_typo does; a caller that knows such a domain works
 * passes it in `knownDomains` and it is left alone.
 */
export const SUSPECT_TLDS: ReadonlyMap<string, string> = new Map([
  ['cm', 'com'],
  ['om', 'com'],
  ['ne', 'net'],
  ['et', 'net'],
]);

/** Generic TLDs under which a big provider's brand name is a typo of its `.com` (gmail.net). */
export const SWAPPABLE_TLDS: ReadonlySet<string> = new Set(['net', 'org', 'co', 'info', 'biz', 'us']);

const PSL = { allowPrivateDomains: false, validateHostname: false } as const;

/** The ICANN public suffix of a well-formed domain (`co.uk` for `a.co.uk`, `br` for `a.co.br`). */
export function publicSuffix(domain: string): string {
  // One correction asks about the same few candidates several times (ranking, registry checks,
  // the search towards popular domains). Any string can be asked about: bounded, starting over
  // when full.
  let suffix = suffixes.get(domain);
  if (suffix === undefined) {
    suffix = getPublicSuffix(domain, PSL) ?? domain.slice(domain.lastIndexOf('.') + 1);
    if (suffixes.size >= SUFFIX_CACHE_LIMIT) suffixes.clear();
    suffixes.set(domain, suffix);
  }
  return suffix;
}

const suffixes = new Map<string, string>();
const SUFFIX_CACHE_LIMIT = 4096;

/**
 * Second-level labels that registries use under a country TLD (`co.uk`, `com.br`). Under a TLD
 * where the pair is not a registry ending (`co.pl`, `co.be`), such a label is a typo, not a name.
 */
const REGISTRY_LABELS: ReadonlySet<string> = new Set(['ac', 'co', 'com', 'ed', 'edu', 'go', 'gob', 'gov', 'mil', 'ne', 'net', 'or', 'org']);

/**
 * - `fine`: a real ending.
 * - `tld`: no dot, an unknown TLD or a suspect one; any common ending may replace it.
 * - `second-level`: a country registry's second level that does not exist there but is one slip
 *   from one that does (`example.co.br`, `example.ed.br`, `gmail.o.uk`); only that one fits.
 * - `leave`: special-use (`.test`, `.local`) or numeric TLDs, deliberate or not domains at all.
 */
export type SuffixState = 'fine' | 'tld' | 'second-level' | 'leave';

export function suffixState(domain: string): SuffixState {
  const dot = domain.lastIndexOf('.');
  if (dot === -1) return 'tld';
  const tld = domain.slice(dot + 1);
  if (tld.length === 0) return 'tld';
  if (/^[0-9]+$/.test(tld) || RESERVED_TLDS.has(tld)) return 'leave';
  if (!isRealTld(tld) || SUSPECT_TLDS.has(tld)) return 'tld';
  return intendedSecondLevel(domain) === null ? 'fine' : 'second-level';
}

/**
 * A delegated TLD. The public suffix list has no rule for a few TLDs that register only under
 * second levels (`.za`: co.za, org.za…), so a TLD with such a registry ending counts too.
 */
export function isRealTld(tld: string): boolean {
  if (isIcannTld(tld)) return true;
  let real = realTlds.get(tld);
  if (real === undefined) {
    real = ['co', 'com', 'org', 'net', 'ac', 'gov', 'edu'].some((label) => publicSuffix(`x.${label}.${tld}`) === `${label}.${tld}`);
    // Any label can be typed as a TLD: bounded, starting over when full.
    if (realTlds.size >= TLD_CACHE_LIMIT) realTlds.clear();
    realTlds.set(tld, real);
  }
  return real;
}

const realTlds = new Map<string, boolean>();
const TLD_CACHE_LIMIT = 4096;

/** For `a.co.br`: the registry ending that was meant and what the slip costs, else null. */
export function intendedSecondLevel(domain: string): { suffix: string; cost: number } | null {
  const last = lastLabels(domain);
  if (last === null) return null;
  const [second, tld] = last;
  const endings = BY_TLD.get(tld);
  if (endings === undefined || second.length > 4 || publicSuffix(domain) !== tld) return null;
  const typed = `${second}.${tld}`;
  let best: { suffix: string; cost: number } | null = null;
  for (const suffix of endings) {
    // Only slips (a neighbouring key, a dropped letter); anything further is more likely a real
    // name registered directly under the TLD.
    const cost = typoCostWithin(typed, suffix, MAX_SECOND_LEVEL_COST);
    if (cost <= MAX_SECOND_LEVEL_COST && (best === null || cost < best.cost)) best = { suffix: suffix.text, cost };
  }
  return best;
}

export function isRegistryLabel(label: string): boolean {
  return REGISTRY_LABELS.has(label);
}

/** `example.co.pl`: a registry label under a TLD that has no such registry. */
export function hasImpossibleSecondLevel(domain: string): boolean {
  const last = lastLabels(domain);
  return last !== null && REGISTRY_LABELS.has(last[0]) && publicSuffix(domain) === last[1];
}

/** The second-level label and the TLD of a domain with at least three labels, else null. */
function lastLabels(domain: string): [second: string, tld: string] | null {
  const dot = domain.lastIndexOf('.');
  const before = dot > 0 ? domain.lastIndexOf('.', dot - 1) : -1;
  if (before === -1) return null;
  return [domain.slice(before + 1, dot), domain.slice(dot + 1)];
}

/** The popularity of a domain's ending, 1 when it is not a common one. */
export function suffixWeight(domain: string): number {
  return COMMON_SUFFIXES.get(publicSuffix(domain)) ?? 1;
}

const MAX_SECOND_LEVEL_COST = 0.75;

/** `br` → [com.br, net.br, …], prepared for the typo distance. */
const BY_TLD = new Map<string, Intended[]>();
for (const suffix of COMMON_SUFFIXES.keys()) {
  const dot = suffix.indexOf('.');
  if (dot === -1) continue;
  const tld = suffix.slice(dot + 1);
  BY_TLD.set(tld, [...(BY_TLD.get(tld) ?? []), prepareIntended(suffix)]);
}
