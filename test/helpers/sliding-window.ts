/**
 * Counting events in sliding intervals, for the connection budget's tests: the budget promises
 * that no interval of a window's length, wherever it starts, holds more than the budget.
 */

/** The most of `times` inside one half-open interval [t, t + length), over every t. */
export function mostInAnyInterval(times: readonly number[], length: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let first = 0, last = 0; first < sorted.length; first++) {
    while (last < sorted.length && sorted[last]! < sorted[first]! + length) last++;
    most = Math.max(most, last - first);
  }
  return most;
}

/**
 * An event seen from outside the store: it happened at some moment in [from, to] (the call
 * that made it started at `from` and had its answer at `to`).
 */
export interface Seen {
  from: number;
  to: number;
}

/**
 * The most events certainly inside one interval of `length`, from when each was seen: events
 * whose whole ranges fit in [t, t + length) for some t. Never more than the true most (so an
 * assertion that this stays within a bound cannot fail for a store that keeps the bound, however
 * slow the machine), and close to it when the ranges are short (a loaded machine only weakens it).
 */
export function mostCertainlyInAnyInterval(seen: readonly Seen[], length: number): number {
  let most = 0;
  for (const start of seen) {
    const inside = seen.filter((s) => s.from >= start.from && s.to < start.from + length).length;
    most = Math.max(most, inside);
  }
  return most;
}

/**
 * Runs `call`, noting when it started and when it answered: Date.now(), the clock the stores'
 * windows run on (rate-limiter-flexible's memory store; Redis's on this machine) and the counting
 * SMTP server notes arrivals by.
 */
export async function seen<T>(call: () => Promise<T>): Promise<{ value: T } & Seen> {
  const from = Date.now();
  const value = await call();
  return { value, from, to: Date.now() };
}
