// How candidates are ordered: by tier of trust, then by typo cost less a small popularity prior,
// then by name so that equal candidates always come out in the same order.

export interface Ranked {
  domain: string;
  /** Typo distance from what was typed; lower is likelier. */
  cost: number;
  /** 0: a popular or known domain; 1: a repaired ending; 2: the domain as typed though fixes exist. */
  tier: number;
  /** Popularity prior (≥ 1). */
  weight: number;
}

/** How much a tenfold popularity is worth, in typo cost: enough to break near-ties only. */
const PRIOR_PER_DECADE = 0.2;

export function score(r: Ranked): number {
  return r.cost - PRIOR_PER_DECADE * Math.log10(Math.max(r.weight, 1));
}

export function byRank(a: Ranked, b: Ranked): number {
  return a.tier - b.tier || score(a) - score(b) || (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0);
}
