/**
 * How a budget of `perWindow` connections in any `windowSeconds`-long interval is kept with
 * rate-limiter-flexible's fixed windows. A fixed window of the whole budget lets twice the budget
 * through around its boundary (the budget at its end, the budget again as the next opens); short
 * windows of few points do not. A window opens with the connection that finds none open and lasts
 * `seconds` (whole seconds: RateLimiterRedis rounds a fraction down, and below one second to no
 * expiry at all), so windows start at least `seconds` apart. An interval of `windowSeconds` then
 * holds at most ceil(windowSeconds / seconds) windows opened inside it, `points` each, plus
 * `points - 1` from one opened before it (its first connection lies before the interval):
 * `points * (ceil(windowSeconds / seconds) + 1) - 1`, which paceFor keeps within `perWindow`.
 */
export interface Pace {
  /** Connections per short window (1 at up to a connection per second: no burst at all). */
  points: number;
  /** The short window, in whole seconds. */
  seconds: number;
}

/**
 * The fastest pace whose worst interval stays within `perWindow`; of equally fast ones, the one
 * with the fewest points (the evenest). One connection every `windowSeconds / perWindow` seconds
 * when that is a whole number (every profile: 10, 20 or 30 a minute); never faster than the budget.
 */
export function paceFor(perWindow: number, windowSeconds: number): Pace {
  let best: Pace = { points: 1, seconds: Math.ceil(windowSeconds / perWindow) };
  for (let points = 2; ; points++) {
    // The most windows an interval may see opened inside it, at this many points each.
    const windows = Math.floor((perWindow + 1) / points) - 1;
    if (windows < 1) return best;
    const seconds = Math.ceil(windowSeconds / windows);
    if (points * best.seconds > best.points * seconds) best = { points, seconds };
  }
}

/** The most connections `pace` lets into any interval of `windowSeconds` (the bound above). */
export function worstInterval(pace: Pace, windowSeconds: number): number {
  return pace.points * (Math.ceil(windowSeconds / pace.seconds) + 1) - 1;
}
