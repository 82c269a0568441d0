// Candidate corrections for a mistyped domain, best first. Pure: what is "real" comes from the
// popular list, the caller's known-working domains and our list of near-miss real domains; the
// verification pipeline checks every candidate before offering it.
//
// Two kinds of fix, in order of trust:
//   tier 0  towards a popular (or caller-known) mail domain: `gmial.com` → gmail.com,
//           `gmail.net` → gmail.com, `yaho.co.uk` → yahoo.co.uk;
//   tier 1  repairing an ending that cannot be right, keeping the name (ending-repairs.ts):
//           `example.con` → .com, `examplecom` → example.com, `example.co.br` → example.com.br.
// When a tier-0 fix exists the tier-1 ones are dropped: `gnail.con` means gmail.com, and the
// "repaired" gnail.com is a domain nobody meant.

import { endingVariants, repeatedTld } from './ending-repairs.js';
import { isListedMailDomain } from './listed-domains.js';
import { nameCosts, prepareName, type PreparedName } from './name-costs.js';
import { NOT_TYPOS, POPULAR_DOMAINS, type PopularDomain } from './popular-domains.js';
import { LruCache } from './lru-cache.js';
import { byRank, sortedByRank, type Ranked } from './rank.js';
import { publicSuffix, SWAPPABLE_TLDS, suffixState } from './suffixes.js';

interface Target extends PopularDomain {
  body: string;
  suffix: string;
  /** `maxNameCost(body, weight)`. */
  limit: number;
  /** Index of `body` in NAMES. */
  name: number;
}

/** A brand under another generic TLD (gmail.net): the TLD is wrong as a whole, one unit. */
const TLD_SWAP_COST = 1;
/** A bare brand name missing its TLD altogether (`gmail`). */
const MISSING_TLD_COST = 1;

/**
 * A brand's name under a country ending it has no copy at (`gmai.co.uk`) is taken for the brand
 * only when the name is one slip off; the main domain is then a second guess (name and TLD).
 */
const ONE_SLIP = 0.75;
/**
 * A listed (real) domain is corrected only towards one of the biggest providers, and only for a
 * slip or so: what is listed near them is typo-squatting (gmial.com, hotmial.com), while listed
 * names near smaller ones are real services (imail.ru, amail.com, q.com, y7mail.com).
 */
const LISTED_MAX_COST = 1;
const LISTED_MIN_TARGET_WEIGHT = 100;
/** Below this popularity a target is a minor provider, and a near name is likelier its own. */
const MAJOR_WEIGHT = 20;

/**
 * How far a name may be from a popular one and still be its typo. Short names sit close to many
 * real ones (`gm` is General Motors, one letter from gmx), so they get only a slip or two; so do
 * minor providers (`jump.com` is not a typo of juno.com).
 */
export function maxNameCost(name: string, weight: number): number {
  const n = name.length;
  const base = n <= 2 ? 0.5 : n === 3 ? 0.75 : n <= 5 ? 1.5 : n <= 8 ? 2 : 2.5;
  return weight >= MAJOR_WEIGHT ? base : Math.max(base - 0.75, 0.5);
}

const SPLIT = POPULAR_DOMAINS.map((p) => {
  const suffix = publicSuffix(p.domain);
  const body = p.domain.slice(0, -suffix.length - 1);
  return { ...p, suffix, body, limit: maxNameCost(body, p.weight) };
});
// Each distinct name once (yahoo for yahoo.com, yahoo.fr…), searched up to the largest
// allowance any of its domains has.
const NAME_LIMITS = new Map<string, number>();
for (const t of SPLIT) NAME_LIMITS.set(t.body, Math.max(NAME_LIMITS.get(t.body) ?? 0, t.limit));
const NAMES: readonly PreparedName[] = [...NAME_LIMITS].map(([body, limit]) => prepareName(body, limit));
const NAME_INDEX = new Map([...NAME_LIMITS.keys()].map((body, i) => [body, i]));
const TARGETS: readonly Target[] = SPLIT.map((t) => ({ ...t, name: NAME_INDEX.get(t.body)! }));
/** Per name, the indices in TARGETS of its domains. */
const TARGETS_BY_NAME: readonly number[][] = NAMES.map(() => []);
TARGETS.forEach((t, i) => TARGETS_BY_NAME[t.name]!.push(i));
const POPULAR = new Map(TARGETS.map((t) => [t.domain, t]));
const BRANDS = new Map(TARGETS.filter((t) => t.brand === true && t.suffix === 'com').map((t) => [t.body, t]));
const NOT_TYPO_SET: ReadonlySet<string> = new Set(NOT_TYPOS);
/** Domains recently corrected, and their fixes (for callers that know no domains). */
const FIXES = new LruCache<string, readonly Ranked[]>(2048);

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
export function domainFixes(domain: string, known: ReadonlySet<string>): readonly Ranked[] {
  if (domain.length === 0 || domain.length > 253 || isProtectedDomain(domain, known)) return [];
  // What a caller knows changes the answer; without it, the answer is the domain's alone.
  if (known.size > 0) return findFixes(domain, known);
  let fixes = FIXES.get(domain);
  if (fixes === undefined) {
    fixes = Object.freeze(findFixes(domain, known).map((f) => Object.freeze(f)));
    FIXES.set(domain, fixes);
  }
  return fixes;
}

function findFixes(domain: string, known: ReadonlySet<string>): Ranked[] {
  const state = suffixState(domain);
  if (state === 'leave') return [];
  const found = new Map<string, Ranked>();
  // Repairs of one ending mostly share the name (`example` in example.com, example.co…).
  const reachByName = new Map<string, Reach>();

  for (const v of endingVariants(domain, state)) {
    if (v.cost > 0) {
      const popular = POPULAR.get(v.domain);
      const tier = popular !== undefined || known.has(v.domain) ? 0 : 1;
      addFix(found, domain, { domain: v.domain, cost: v.cost, tier, weight: popular?.weight ?? v.weight });
    }
    for (const fix of towardsPopular(v.domain, v.cost, reachByName)) addFix(found, domain, fix);
  }
  if (state === 'fine') {
    const extra = appendedTld(domain);
    if (extra !== null) addFix(found, domain, extra);
    const repeated = repeatedTld(domain);
    if (repeated !== null) {
      const popular = POPULAR.get(repeated.domain);
      addFix(found, domain, { ...repeated, tier: popular === undefined ? 1 : 0, weight: popular?.weight ?? repeated.weight });
    }
    const co = coToKnownCom(domain, known);
    if (co !== null) addFix(found, domain, co);
  }
  const brand = domain.includes('.') ? undefined : BRANDS.get(domain);
  if (brand !== undefined) addFix(found, domain, { domain: brand.domain, cost: MISSING_TLD_COST, tier: 0, weight: brand.weight });

  let fixes = sortedByRank([...found.values()]);
  if (isListedMailDomain(domain)) {
    fixes = fixes.filter(
      (f) => f.tier === 0 && f.cost <= LISTED_MAX_COST && (POPULAR.get(f.domain)?.weight ?? 0) >= LISTED_MIN_TARGET_WEIGHT,
    );
  }
  return fixes[0]?.tier === 0 ? fixes.filter((f) => f.tier === 0) : fixes;
}

/** Keeps the better of two fixes to the same domain; never the domain itself. */
function addFix(found: Map<string, Ranked>, domain: string, fix: Ranked): void {
  if (fix.domain === domain) return;
  const seen = found.get(fix.domain);
  if (seen === undefined || byRank(fix, seen) < 0) found.set(fix.domain, fix);
}

/**
 * Fixes towards a popular domain for `domain` (reached at `baseCost` from what was typed): the
 * same ending with a mistyped name, a brand under another generic TLD, or a brand name under a
 * country ending (`yaho.co.uk` → yahoo.co.uk; `gmai.co.uk` → gmail.com).
 */
function towardsPopular(domain: string, baseCost: number, reachByName: Map<string, Reach>): Ranked[] {
  const suffix = publicSuffix(domain);
  const body = domain.slice(0, -suffix.length - 1);
  // Subdomains (`anything.comcast.com`) are somebody's own names, not typos of a provider.
  if (body.length === 0 || body.includes('.')) return [];
  let reach = reachByName.get(body);
  if (reach === undefined) reachByName.set(body, (reach = reachOf(body)));
  const out: Ranked[] = [];
  for (let n = 0; n < reach.targets.length; n++) {
    const t = reach.targets[n]!;
    const limit = t.limit;
    const nameCost = reach.costs[n]!;
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
      // The provider's copy for that country when it exists (yaho.co.uk → yahoo.co.uk), then its
      // main domain (gmai.co.uk → gmail.com: there is no gmail.co.uk mail service).
      const regional = `${t.body}.${suffix}`;
      const popular = POPULAR.get(regional);
      if (popular !== undefined && nameCost <= maxNameCost(t.body, popular.weight)) {
        out.push({ domain: regional, cost: baseCost + nameCost, tier: 0, weight: popular.weight });
      } else if (isListedMailDomain(regional)) {
        out.push({ domain: regional, cost: baseCost + nameCost, tier: 0, weight: 1 });
      }
      if (nameCost <= ONE_SLIP) out.push({ domain: t.domain, cost: baseCost + nameCost + TLD_SWAP_COST, tier: 0, weight: t.weight });
    }
  }
  return out;
}

/** The popular domains whose name is within its allowance of `body`, in TARGETS order, and at what cost. */
interface Reach {
  targets: Target[];
  costs: number[];
}

function reachOf(body: string): Reach {
  // A provider's exact name (`gmail.com.co`, `ymail.co.uk`) is that provider, not a neighbour's
  // typo: only domains with that very name are left, at no cost.
  const exact = NAME_INDEX.get(body);
  const costs = exact === undefined ? nameCosts(body, NAMES) : null;
  // The domains of the names in reach, in TARGETS order (which decides between equal fixes).
  const indices: number[] = [];
  for (let k = 0; k < NAMES.length; k++) {
    if (costs === null ? k === exact : costs[k]! <= NAMES[k]!.limit) indices.push(...TARGETS_BY_NAME[k]!);
  }
  indices.sort((a, b) => a - b);
  const reach: Reach = { targets: [], costs: [] };
  for (const i of indices) {
    const t = TARGETS[i]!;
    const nameCost = costs === null ? 0 : costs[t.name]!;
    if (nameCost > t.limit) continue;
    reach.targets.push(t);
    reach.costs.push(nameCost);
  }
  return reach;
}

/** `fr`, `co.uk`, `com.br`: where a provider may run a country copy (not `ac.in`, `gov.uk`). */
function isCountryEnding(suffix: string): boolean {
  const labels = suffix.split('.');
  if (labels.length > 2 || (labels[labels.length - 1] as string).length !== 2) return false;
  return labels.length === 1 || labels[0] === 'co' || labels[0] === 'com';
}

/** `gmail.com.co` → gmail.com: a provider that never ran country copies, with a TLD appended. */
function appendedTld(domain: string): Ranked | null {
  const dot = domain.lastIndexOf('.');
  const target = POPULAR.get(domain.slice(0, dot));
  if (target?.global !== true || domain.length - dot !== 3) return null;
  return { domain: target.domain, cost: 1, tier: 0, weight: target.weight };
}

/**
 * `x.co` → `x.com` when the caller knows x.com receives mail (and does not know x.co). `.co` is a
 * real TLD, so this needs knowledge; for the popular brands the TLD swap covers it.
 */
function coToKnownCom(domain: string, known: ReadonlySet<string>): Ranked | null {
  if (!domain.endsWith('.co')) return null;
  const com = `${domain}m`;
  return known.has(com) ? { domain: com, cost: 1, tier: 0, weight: 1 } : null;
}
