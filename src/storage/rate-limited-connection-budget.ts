/**
 * The SMTP connection budget over rate-limiter-flexible: one fixed window per (provider, egress)
 * holding `perWindow` points, one point per connection, `slowDownCost` points while a cool-down
 * key (set by a slow-down reply, expiring by itself) exists. The same code runs over the
 * in-process store (memory-connection-budget.ts) and Redis (redis-connection-budget.ts).
 */
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from '../core/logger.js';
import { DEFAULT_BUDGET_TUNING, type BudgetKey, type BudgetTuning, type ConnectionBudget } from '../verification/smtp/connection-budget.js';

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
  // A limiter holds one points figure; profiles differ in theirs, so one limiter per figure.
  const byPoints = new Map<number, RateLimiterAbstract>();
  const windowFor = (points: number) => {
    let limiter = byPoints.get(points);
    if (!limiter) {
      limiter = make({ points, duration: tuning.windowSeconds, keyPrefix: `${options.keyPrefix}:w${points}` });
      byPoints.set(points, limiter);
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
    async take(key, perWindow, deadline) {
      if (!(Number.isInteger(perWindow) && perWindow >= 1)) throw new RangeError(`perWindow must be a positive integer, got ${perWindow}`);
      const limiter = windowFor(perWindow);
      for (;;) {
        const cost = (await coolingDown(key)) ? Math.min(tuning.slowDownCost, perWindow) : 1;
        try {
          await limiter.consume(keyOf(key), cost);
          return true;
        } catch (refusal) {
          if (!(refusal instanceof RateLimiterRes)) throw refusal;
          // Wait for the next window if it opens before the deadline (a few ms past it, so
          // the store has let the old one go).
          const wait = refusal.msBeforeNext + 5;
          if (Date.now() + wait >= deadline) return false;
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
