// Candidate corrections for a mistyped domain, best first. Pure: what is "real" comes from the
// popular list, the caller's known-working domains and our list of near-miss real domains; the
// verification pipeline checks every candidate before offering it.
//
// Two kinds of fix, tried in this order of trust:
//   tier 0  towards a popular (or caller-known) mail domain: `gmial.com` → gmail.com,
//           `gmail.net` → gmail.com, `gmai.co.uk` → gmail.co.uk;
//   tier 1  repairing an ending that cannot be right, keeping the name: `example.con` → .com,
//           `examplecom` → example.com, `example.co.br` → example.com.br.
// When a tier-0 fix exists the tier-1 ones are dropped: `gnail.con` means gmail.com, and the
// "repaired" gnail.com is a domain nobody meant.

import { typoCost } from './distance.js';
import { NOT_TYPOS, POPULAR_DOMAINS, type PopularDomain } from './popular-domains.js';
import { COMMON_SUFFIXES, publicSuffix, SUSPECT_TLDS, SWAPPABLE_TLDS, suffixState } from './suffixes.js';

export interface DomainFix {
  domain: string;
  /** Typo distance from what was typed; lower is likelier. */
  cost: number;
  tier: 0 | 1;
  /** Popularity prior, breaks ties between equal costs. */
  weight: number;
}

interface Target extends PopularDomain {
  body: string;
  suffix: string;
}

const TARGETS: readonly Target[] = POPULAR_DOMAINS.map((p) => {
  const suffix = publicSuffix(p.domain);
  return { ...p, suffix, body: p.domain.slice(0, -suffix.length - 1) };
});
const POPULAR = new Map(TARGETS.map((t) => [t.domain, t]));
const BRANDS = new Map(TARGETS.filter((t) => t.brand === true && t.suffix === 'com').map((t) => [t.body, t]));
const NOT_TYPO_SET: ReadonlySet<string> = new Set(NOT_TYPOS);

/** Most a single ending repair may cost: `comme` → `com` (1.5) is about the limit of a slip. */
const MAX_SUFFIX_COST = 1.5;
/** A brand under another generic TLD (gmail.net): the TLD is wrong as a whole, one unit. */
const TLD_SWAP_COST = 1;
/** A bare brand name missing its TLD altogether (`gmail`). */
const MISSING_TLD_COST = 1;

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
    if (seen === undefined || fix.tier < seen.tier || (fix.tier === seen.tier && fix.cost < seen.cost)) found.set(fix.domain, fix);
  };

  const variants = state === 'fine' ? [{ domain, cost: 0, weight: 0 }] : suffixRepairs(domain);
  for (const v of variants) {
    if (v.cost > 0) {
      const popular = POPULAR.get(v.domain);
      const isKnown = known.has(v.domain);
      add({ domain: v.domain, cost: v.cost, tier: popular !== undefined || isKnown ? 0 : 1, weight: popular?.weight ?? v.weight });
    }
    for (const fix of towardsPopular(v.domain, v.cost)) add(fix);
  }
  if (state === 'fine') {
    for (const fix of extraLabel(domain)) add(fix);
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

export function byRank(a: DomainFix, b: DomainFix): number {
  return a.tier - b.tier || a.cost - b.cost || b.weight - a.weight || (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0);
}

/**
 * Fixes towards a popular domain for `domain` (reached at `baseCost` from what was typed): the
 * same ending with a mistyped name, a brand under another generic TLD, or a brand name under a
 * country ending, which keeps the country (`gmai.co.uk` → gmail.co.uk, then gmail.com).
 */
function towardsPopular(domain: string, baseCost: number): DomainFix[] {
  const suffix = publicSuffix(domain);
  const body = domain.slice(0, -suffix.length - 1);
  // Subdomains (`anything.comcast.com`) are somebody's own names, not typos of a provider.
  if (body.length === 0 || body.includes('.')) return [];
  const out: DomainFix[] = [];
  for (const t of TARGETS) {
    const limit = maxNameCost(t.body);
    // Cheap bound first: every character of length difference costs at least 0.5.
    if (Math.abs(body.length - t.body.length) * 0.5 > limit) continue;
    const nameCost = typoCost(body, t.body);
    if (nameCost > limit) continue;
    if (suffix === t.suffix) {
      if (nameCost > 0 || baseCost > 0) out.push({ domain: t.domain, cost: baseCost + nameCost, tier: 0, weight: t.weight });
      continue;
    }
    if (t.brand !== true || t.suffix !== 'com') continue;
    if (SWAPPABLE_TLDS.has(suffix)) {
      // The TLD is real, so the whole change must stay within one slip's worth for this name:
      // gmail.net and goooglemail.net are fixed, gmiol.co (two slips and a TLD) is not.
      if (baseCost === 0 && nameCost + TLD_SWAP_COST <= Math.max(limit, TLD_SWAP_COST)) {
        out.push({ domain: t.domain, cost: nameCost + TLD_SWAP_COST, tier: 0, weight: t.weight });
      }
    } else if (/^[a-z]{2}$/.test(suffix.slice(suffix.lastIndexOf('.') + 1)) && nameCost > 0) {
      const regional = `${t.body}.${suffix}`;
      const weight = POPULAR.get(regional)?.weight ?? t.weight / 20;
      out.push({ domain: regional, cost: baseCost + nameCost, tier: 0, weight });
      out.push({ domain: t.domain, cost: baseCost + nameCost + TLD_SWAP_COST, tier: 0, weight: t.weight });
    }
  }
  return out;
}

interface Repair {
  domain: string;
  cost: number;
  weight: number;
}

/**
 * Repairs of a broken ending: the cheapest ways to end the domain with a common suffix, cutting
 * anywhere in the last few characters so that a misplaced or missing dot is found too
 * (`gmailc.om`, `examplecom`, `example.couk`).
 */
function suffixRepairs(domain: string): Repair[] {
  const out: Repair[] = [];
  const tld = domain.slice(domain.lastIndexOf('.') + 1);
  const suspect = domain.includes('.') ? SUSPECT_TLDS.get(tld) : undefined;
  for (const [suffix, weight] of COMMON_SUFFIXES) {
    const target = `.${suffix}`;
    const from = Math.max(1, domain.length - target.length - 3);
    for (let i = from; i < domain.length; i++) {
      const head = domain.slice(0, i);
      if (head.endsWith('.') || head.endsWith('-')) continue;
      const tail = domain.slice(i);
      let cost: number;
      if (suspect !== undefined && tail === `.${tld}`) {
        // A real TLD: only its usual meaning, and never as cheaply as an invalid one.
        if (suffix !== suspect) continue;
        cost = Math.max(typoCost(tail, target), 1);
      } else if (tail.startsWith('.') && tail.length > 1 && !suffix.includes('.') && suffix.startsWith(tail.slice(1)) && suffix !== tail.slice(1)) {
        // Typing stopped early (`.c`, `.ed`, `.r`): any completion is one slip; the prior picks.
        cost = 0.75;
      } else {
        cost = typoCost(tail, target);
      }
      if (cost > 0 && cost <= MAX_SUFFIX_COST) out.push({ domain: head + target, cost, weight });
    }
  }
  return out;
}

/** `gmail.com.co` → gmail.com: a provider that never ran country copies, with a TLD appended. */
function extraLabel(domain: string): DomainFix[] {
  const dot = domain.lastIndexOf('.');
  const target = POPULAR.get(domain.slice(0, dot));
  if (target?.global !== true || domain.length - dot !== 3) return [];
  return [{ domain: target.domain, cost: 1, tier: 0, weight: target.weight }];
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
  return { domain: [...labels.slice(0, -2), tld].join('.'), cost: 0.5 + cost, weight: COMMON_SUFFIXES.get(tld) ?? 1 };
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
