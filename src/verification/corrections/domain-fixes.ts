// Candidate corrections for a mistyped domain, best first. Pure: what is "real" comes from the
// popular list, the caller's known-working domains and our list of near-miss real domains; the
// verification pipeline checks every candidate before offering it.
//
// Two kinds of fix, in order of trust:
//   tier 0  towards a popular (or caller-known) mail domain: `gmial.com` → gmail.com,
//           `gmail.net` → gmail.com, `gmai.co.uk` → gmail.co.uk (then gmail.com);
//   tier 1  repairing an ending that cannot be right, keeping the name: `example.con` → .com,
//           `examplecom` → example.com, `example.co.br` → example.com.br.
// When a tier-0 fix exists the tier-1 ones are dropped: `gnail.con` means gmail.com, and the
// "repaired" gnail.com is a domain nobody meant.

import { typoCost } from './distance.js';
import { NOT_TYPOS, POPULAR_DOMAINS, type PopularDomain } from './popular-domains.js';
import {
  COMMON_SUFFIXES,
  hasImpossibleSecondLevel,
  intendedSecondLevel,
  publicSuffix,
  SUSPECT_TLDS,
  SWAPPABLE_TLDS,
  suffixState,
  suffixWeight,
} from './suffixes.js';

export interface Ranked {
  domain: string;
  /** Typo distance from what was typed; lower is likelier. */
  cost: number;
  /** 0: a popular or known domain; 1: a repaired ending; 2: the domain as typed though fixes exist. */
  tier: number;
  /** Popularity prior (≥ 1). */
  weight: number;
}

export type DomainFix = Ranked;

interface Target extends PopularDomain {
  body: string;
  suffix: string;
}

const TARGETS: readonly Target[] = POPULAR_DOMAINS.map((p) => {
  const suffix = publicSuffix(p.domain);
  return { ...p, suffix, body: p.domain.slice(0, -suffix.length - 1) };
});
const POPULAR = new Map(TARGETS.map((t) => [t.domain, t]));
const BODIES: ReadonlySet<string> = new Set(TARGETS.map((t) => t.body));
const BRANDS = new Map(TARGETS.filter((t) => t.brand === true && t.suffix === 'com').map((t) => [t.body, t]));
const NOT_TYPO_SET: ReadonlySet<string> = new Set(NOT_TYPOS);

/** Most a repair of the ending may cost: `comme` → `com` (1.25) is about the limit of a slip. */
const MAX_SUFFIX_COST = 1.5;
/** A brand under another generic TLD (gmail.net): the TLD is wrong as a whole, one unit. */
const TLD_SWAP_COST = 1;
/** A bare brand name missing its TLD altogether (`gmail`). */
const MISSING_TLD_COST = 1;
/** Typing stopped before the end of the TLD (`.c`, `.ed`, `.r`): one slip, and the prior picks. */
const TRUNCATED_TLD_COST = 0.5;
/** How much a tenfold popularity is worth, in typo cost: enough to break near-ties only. */
const PRIOR_PER_DECADE = 0.2;

/**
 * How far a name may be from a popular one and still be its typo. Short names sit close to many
 * real ones (`gm` is General Motors, one letter from gmx), so they get only a slip or two.
 */
export function maxNameCost(name: string): number {
  const n = name.length;
  if (n <= 2) return 0.5;
  if (n === 3) return 0.75;
  if (n <= 5) return 1.5;
  if (n <= 8) return 2;
  return 2.5;
}

/** True for domains that are never corrected: popular, caller-known or known-real. */
export function isProtectedDomain(domain: string, known: ReadonlySet<string>): boolean {
  return POPULAR.has(domain) || NOT_TYPO_SET.has(domain) || known.has(domain);
}

export function isPopularDomain(domain: string): boolean {
  return POPULAR.has(domain);
}

/** Order: tier, then cost less the popularity prior, then the name (for determinism). */
export function byRank(a: Ranked, b: Ranked): number {
  return a.tier - b.tier || score(a) - score(b) || (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0);
}

function score(r: Ranked): number {
  return r.cost - PRIOR_PER_DECADE * Math.log10(Math.max(r.weight, 1));
}

/**
 * Ranked fixes for a lower-case domain (never the domain itself). `known` holds domains the
 * caller knows to receive mail: they are left alone, and `x.co` → `x.com` is offered when x.com is
 * one of them.
 */
export function domainFixes(domain: string, known: ReadonlySet<string>): DomainFix[] {
  if (domain.length === 0 || domain.length > 253 || isProtectedDomain(domain, known)) return [];
  const state = suffixState(domain);
  if (state === 'leave') return [];
  const found = new Map<string, DomainFix>();
  const add = (fix: DomainFix): void => {
    if (fix.domain === domain) return;
    const seen = found.get(fix.domain);
    if (seen === undefined || byRank(fix, seen) < 0) found.set(fix.domain, fix);
  };

  for (const v of endingVariants(domain, state)) {
    if (v.cost > 0) {
      const popular = POPULAR.get(v.domain);
      const tier = popular !== undefined || known.has(v.domain) ? 0 : 1;
      add({ domain: v.domain, cost: v.cost, tier, weight: popular?.weight ?? v.weight });
    }
    for (const fix of towardsPopular(v.domain, v.cost)) add(fix);
  }
  if (state === 'fine') {
    const extra = appendedTld(domain);
    if (extra !== null) add(extra);
    const repeated = repeatedTld(domain);
    if (repeated !== null) add({ ...repeated, tier: POPULAR.has(repeated.domain) ? 0 : 1 });
    const co = coToKnownCom(domain, known);
    if (co !== null) add(co);
  }
  const brand = domain.includes('.') ? undefined : BRANDS.get(domain);
  if (brand !== undefined) add({ domain: brand.domain, cost: MISSING_TLD_COST, tier: 0, weight: brand.weight });

  const fixes = [...found.values()].sort(byRank);
  return fixes[0]?.tier === 0 ? fixes.filter((f) => f.tier === 0) : fixes;
}

interface Variant {
  domain: string;
  cost: number;
  weight: number;
}

function endingVariants(domain: string, state: 'fine' | 'tld' | 'second-level'): Variant[] {
  if (state === 'fine') return [{ domain, cost: 0, weight: suffixWeight(domain) }];
  if (state === 'tld') return tldRepairs(domain);
  const meant = intendedSecondLevel(domain);
  if (meant === null) return [];
  const labels = domain.split('.');
  const fixed = [...labels.slice(0, -2), meant.suffix].join('.');
  return [{ domain: fixed, cost: meant.cost, weight: suffixWeight(fixed) }];
}

/**
 * Fixes towards a popular domain for `domain` (reached at `baseCost` from what was typed): the
 * same ending with a mistyped name, a brand under another generic TLD, or a brand name under a
 * country ending, which keeps the country first (`gmai.co.uk` → gmail.co.uk, then gmail.com).
 */
function towardsPopular(domain: string, baseCost: number): DomainFix[] {
  const suffix = publicSuffix(domain);
  const body = domain.slice(0, -suffix.length - 1);
  // Subdomains (`anything.comcast.com`) are somebody's own names, not typos of a provider.
  if (body.length === 0 || body.includes('.')) return [];
  // A provider's exact name (`gmail.com.co`, `ymail.co.uk`) is that provider, not a neighbour's typo.
  const exact = BODIES.has(body);
  const out: DomainFix[] = [];
  for (const t of TARGETS) {
    if (exact && t.body !== body) continue;
    const limit = maxNameCost(t.body);
    // Each character of length difference costs at least 0.5.
    if (Math.abs(body.length - t.body.length) * 0.5 > limit) continue;
    const nameCost = typoCost(body, t.body);
    if (nameCost > limit) continue;
    if (suffix === t.suffix) {
      if (nameCost > 0 || baseCost > 0) out.push({ domain: t.domain, cost: baseCost + nameCost, tier: 0, weight: t.weight });
      continue;
    }
    if (t.brand !== true || t.suffix !== 'com') continue;
    if (SWAPPABLE_TLDS.has(suffix)) {
      // The TLD is real, so the whole change must stay within the name's allowance: gmail.net and
      // goooglemail.net are fixed, gmiol.co (two slips and a TLD) is not.
      if (baseCost === 0 && nameCost + TLD_SWAP_COST <= Math.max(limit, TLD_SWAP_COST)) {
        out.push({ domain: t.domain, cost: nameCost + TLD_SWAP_COST, tier: 0, weight: t.weight });
      }
    } else if (isCountryEnding(suffix) && (nameCost > 0 || baseCost > 0)) {
      const regional = `${t.body}.${suffix}`;
      const weight = POPULAR.get(regional)?.weight ?? t.weight / 20;
      out.push({ domain: regional, cost: baseCost + nameCost, tier: 0, weight });
      out.push({ domain: t.domain, cost: baseCost + nameCost + TLD_SWAP_COST, tier: 0, weight: t.weight });
    }
  }
  return out;
}

/** `fr`, `co.uk`, `com.br`: where a provider may run a country copy (not `ac.in`, `gov.uk`). */
function isCountryEnding(suffix: string): boolean {
  const labels = suffix.split('.');
  if (labels.length > 2 || (labels[labels.length - 1] as string).length !== 2) return false;
  return labels.length === 1 || labels[0] === 'co' || labels[0] === 'com';
}

/**
 * Repairs of an invalid or suspect TLD: the cheapest ways to end the domain with a common suffix.
 * The cut may fall before the last dot (a misplaced dot: `gmailc.om`, `comcastn.et`; or several
 * labels: `example.co.ul`) or inside the last label when that splits off a registry ending
 * (`example.comar` → example.com.ar) or, for a dotless domain, a whole TLD (`examplecom`).
 */
function tldRepairs(domain: string): Variant[] {
  const out: Variant[] = [];
  const lastDot = domain.lastIndexOf('.');
  const tld = domain.slice(lastDot + 1);
  const suspect = lastDot === -1 ? undefined : SUSPECT_TLDS.get(tld);
  for (const suffix of COMMON_SUFFIXES.keys()) {
    const target = `.${suffix}`;
    const from = Math.max(1, domain.length - target.length - 3);
    for (let i = from; i < domain.length; i++) {
      const head = domain.slice(0, i);
      if (head.endsWith('.') || head.endsWith('-')) continue;
      const tail = domain.slice(i);
      let cost: number;
      if (i > lastDot) {
        // Inside the last label: only a missing dot.
        if (lastDot === -1 ? tail !== suffix || head.length < 2 : !COMMON_SUFFIXES.has(`${domain.slice(lastDot + 1, i)}.${suffix}`)) continue;
        cost = typoCost(tail, target);
      } else if (suspect !== undefined && i === lastDot) {
        // A real TLD: only its usual meaning, and never as cheaply as an invalid one.
        if (suffix !== suspect) continue;
        cost = Math.max(typoCost(tail, target), 1);
      } else if (i === lastDot && !suffix.includes('.') && suffix.startsWith(tld) && suffix !== tld) {
        cost = TRUNCATED_TLD_COST;
      } else {
        cost = typoCost(tail, target);
        // Cutting into a name is only a dot typed one place off.
        if (domain[i] !== '.' && (cost > 0.75 || i - head.lastIndexOf('.') - 1 < 2)) continue;
      }
      if (cost === 0 || cost > MAX_SUFFIX_COST) continue;
      const fixed = head + target;
      if (hasImpossibleSecondLevel(fixed)) continue;
      out.push({ domain: fixed, cost, weight: suffixWeight(fixed) });
    }
  }
  return out;
}

/** `gmail.com.co` → gmail.com: a provider that never ran country copies, with a TLD appended. */
function appendedTld(domain: string): DomainFix | null {
  const dot = domain.lastIndexOf('.');
  const target = POPULAR.get(domain.slice(0, dot));
  if (target?.global !== true || domain.length - dot !== 3) return null;
  return { domain: target.domain, cost: 1, tier: 0, weight: target.weight };
}

/**
 * `example.com.com`, `example.con.com` → example.com: the TLD typed twice, once mistyped. Not when
 * the pair is a registry ending of its own (`example.com.co`).
 */
function repeatedTld(domain: string): Omit<DomainFix, 'tier'> | null {
  const labels = domain.split('.');
  if (labels.length < 3) return null;
  const tld = labels[labels.length - 1] as string;
  const before = labels[labels.length - 2] as string;
  if (before.length < 2 || publicSuffix(domain) !== tld) return null;
  const cost = typoCost(before, tld);
  if (cost > 0.75) return null;
  const fixed = [...labels.slice(0, -2), tld].join('.');
  return { domain: fixed, cost: 0.5 + cost, weight: POPULAR.get(fixed)?.weight ?? suffixWeight(fixed) };
}

/**
 * `x.co` → `x.com` when the caller knows x.com receives mail (and does not know x.co). `.co` is a
 * real TLD, so this needs knowledge; for the popular brands the TLD swap covers it.
 */
function coToKnownCom(domain: string, known: ReadonlySet<string>): DomainFix | null {
  if (!domain.endsWith('.co')) return null;
  const com = `${domain}m`;
  return known.has(com) ? { domain: com, cost: 1, tier: 0, weight: 1 } : null;
}
