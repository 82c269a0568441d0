/**
 * Ops/s of two functions over the same inputs: a warm-up each, then alternating timed rounds,
 * best round of each (damps noise from other processes on a small machine). The functions
 * answer truthy for a "hit"; the hits are summed so the work cannot be optimised away.
 */
export interface OpsComparison {
  ours: number;
  baseline: number;
}

export const ROUNDS = 5;
export const ROUND_MS = 700;
export const WARMUP_MS = 700;

export function compareOps(ours: (s: string) => unknown, baseline: (s: string) => unknown, list: readonly string[]): OpsComparison {
  timeRound(ours, list, WARMUP_MS);
  timeRound(baseline, list, WARMUP_MS);
  const best = { ours: 0, baseline: 0 };
  let sink = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const a = timeRound(ours, list, ROUND_MS);
    const b = timeRound(baseline, list, ROUND_MS);
    sink += a.sink + b.sink;
    best.ours = Math.max(best.ours, a.opsPerSec);
    best.baseline = Math.max(best.baseline, b.opsPerSec);
  }
  if (sink < 0) throw new Error('unreachable: keeps the results observable');
  return best;
}

function timeRound(fn: (s: string) => unknown, list: readonly string[], ms: number): { opsPerSec: number; sink: number } {
  let ops = 0;
  let sink = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    for (let i = 0; i < list.length; i++) if (fn(list[i] as string)) sink++;
    ops += list.length;
    elapsed = performance.now() - start;
  } while (elapsed < ms);
  return { opsPerSec: (ops * 1000) / elapsed, sink };
}
