/**
 * The SMTP connection budget over rate-limiter-flexible, smooth rather than a fixed window of the
 * whole budget (which lets twice the budget through across a window boundary).
 *
 * The guarantee, in the store's clock (this process's, or Redis's for every process sharing it):
 * for every moment t, at most `perWindow` connections of one key are taken in [t, t +
 * windowSeconds). Every connection takes one point from short fixed windows of `points` per
 * `seconds` (budget-pace.ts: the fastest whole-second pace whose worst interval stays within the
 * budget), so they come evenly, at most `points` together: one each 6, 3 or 2 seconds at every
 * profile's figure (10, 20, 30 a minute), exactly the budget; a figure that does not divide the
 * window runs a little under it (40 a minute runs at 36: 3 every 5 s).
 *
 * While a cool-down key (set by a slow-down reply, expiring by itself) exists, a connection also
 * takes a point from a second, slower pace of floor(perWindow / slowDownCost), at least one, per
 * window. It still takes its point of the first, so the bound holds across the start and end of
 * a cool-down too. The same code runs over the in-process store (memory-connection-budget.ts)
 * and Redis (redis-connection-budget.ts).
 */
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from '../core/logger.js';
import { DEFAULT_BUDGET_TUNING, type BudgetKey, type BudgetTuning, type ConnectionBudget } from '../verification/smtp/connection-budget.js';
import { paceFor } from './budget-pace.js';

/** Makes a limiter of `points` per `duration` seconds under `keyPrefix` (memory or Redis). */
export type LimiterFactory = (options: { points: number; duration: number; keyPrefix: string }) => RateLimiterAbstract;

export interface RateLimitedBudgetOptions extends Partial<BudgetTuning> {
  keyPrefix: string;
  logger?: Logger;
}

export function createRateLimitedBudget(make: LimiterFactory, options: RateLimitedBudgetOptions): ConnectionBudget {
  const tuning: BudgetTuning = { ...DEFAULT_BUDGET_TUNING, ...definedOnly(options) };
  for (const [name, value] of Object.entries(tuning)) {
    if (!(Number.isInteger(value) && value >= 1)) throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  }
  // A limiter holds one pace; budgets differ in theirs, so one limiter per pace (and per role:
  // the cool-down's pace is a budget of its own even where its figures match a normal one).
  const limiters = new Map<string, RateLimiterAbstract>();
  const paced = (role: 'pace' | 'slow-pace', perWindow: number) => {
    const { points, seconds } = paceFor(perWindow, tuning.windowSeconds);
    const keyPrefix = `${options.keyPrefix}:${role}:${points}/${seconds}s`;
    let limiter = limiters.get(keyPrefix);
    if (!limiter) {
      limiter = make({ points, duration: seconds, keyPrefix });
      limiters.set(keyPrefix, limiter);
    }
    return limiter;
  };
  const coolDown = make({ points: 1, duration: tuning.coolDownSeconds, keyPrefix: `${options.keyPrefix}:slow` });
  const keyOf = (key: BudgetKey) => `${key.provider}|${key.egress}`;

  const coolingDown = async (key: BudgetKey) => {
    try {
      const res = await coolDown.get(keyOf(key));
      return res !== null && res.consumedPoints > 0;
    } catch (error) {
      options.logger?.warn({ err: error }, 'SMTP connection budget: cool-down state unavailable');
      return false;
    }
  };

  return {
    async take(key, perWindow, deadline, wanted, onWait) {
      if (!(Number.isInteger(perWindow) && perWindow >= 1)) throw new RangeError(`perWindow must be a positive integer, got ${perWindow}`);
      const normal = paced('pace', perWindow);
      // A connection cooling down costs `slowDownCost` of the budget: so many fewer per window.
      const slow = paced('slow-pace', Math.floor(perWindow / Math.min(tuning.slowDownCost, perWindow)));
      let paidSlow = false;
      for (let waited = false; ; waited = true) {
        if (waited && wanted && !wanted()) return false;
        try {
          // The slower pace first: its point, once paid, is kept while this call waits for the
          // other's (paid again, it would wait a whole slow window for nothing).
          if (!paidSlow && (await coolingDown(key))) {
            await slow.consume(keyOf(key));
            paidSlow = true;
          }
          await normal.consume(keyOf(key));
          return true;
        } catch (refusal) {
          if (!(refusal instanceof RateLimiterRes)) throw refusal;
          // Wait for the next window if it opens before the deadline (a few ms past it, so
          // the store has let the old one go).
          const wait = Math.max(refusal.msBeforeNext, 0) + 5;
          if (Date.now() + wait >= deadline) return false;
          onWait?.(Date.now() + wait);
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
      }
    },
    async slowDown(key) {
      try {
        await coolDown.set(keyOf(key), 1, tuning.coolDownSeconds);
      } catch (error) {
        options.logger?.warn({ err: error }, 'SMTP connection budget: could not record a slow-down');
      }
    },
    coolingDown,
  };
}

function definedOnly(tuning: Partial<BudgetTuning>): Partial<BudgetTuning> {
  return Object.fromEntries(Object.entries(tuning).filter(([name, value]) => value !== undefined && name in DEFAULT_BUDGET_TUNING));
}
