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

/**
 * `items` in `byRank` order (a new array; equal items keep their order), each score worked out
 * once rather than at every comparison.
 */
export function sortedByRank<T extends Ranked>(items: readonly T[]): T[] {
  const n = items.length;
  if (n < 2) return items.slice();
  const scores: number[] = [];
  const order: number[] = [];
  for (let i = 0; i < n; i++) {
    scores.push(score(items[i]!));
    order.push(i);
  }
  order.sort((i, j) => {
    const a = items[i]!;
    const b = items[j]!;
    return a.tier - b.tier || scores[i]! - scores[j]! || (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0);
  });
  const out: T[] = [];
  for (const i of order) out.push(items[i]!);
  return out;
}
