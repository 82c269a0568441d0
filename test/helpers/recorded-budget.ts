/**
 * A connection budget whose limiters note each point taken (the call's start and answer), for
 * tests that count tokens against the budget's bound: the store's own code
 * (createRateLimitedBudget) over the limiters a store is made with (memoryLimiters, redisLimiters).
 */
import {
  createRateLimitedBudget,
  type LimiterFactory,
  type RateLimitedBudgetOptions,
} from '../../src/storage/rate-limited-connection-budget.js';
import type { ConnectionBudget } from '../../src/verification/smtp/connection-budget.js';
import { seen, type Seen } from './sliding-window.js';

export interface RecordedBudget {
  budget: ConnectionBudget;
  /**
   * The points taken from the budget's pace (every connection takes one), or from the cool-down's
   * slower pace (`slow-pace`: connections while cooling down), as seen from their calls.
   */
  taken(role?: 'pace' | 'slow-pace', egress?: string): Seen[];
}

export function recordedBudget(make: LimiterFactory, options: RateLimitedBudgetOptions): RecordedBudget {
  const taken: (Seen & { role: string; key: string })[] = [];
  const recording: LimiterFactory = (limiterOptions) => {
    const limiter = make(limiterOptions);
    // The store names its limiters `<prefix>:<role>:<points>/<seconds>s`.
    const role = limiterOptions.keyPrefix.split(':').at(-2) ?? '';
    const consume = limiter.consume.bind(limiter);
    limiter.consume = async (...args) => {
      const call = await seen(() => consume(...args));
      taken.push({ role, key: String(args[0]), from: call.from, to: call.to });
      return call.value;
    };
    return limiter;
  };
  return {
    budget: createRateLimitedBudget(recording, options),
    taken: (role = 'pace', egress) => taken.filter((t) => t.role === role && (egress === undefined || t.key.endsWith(`|${egress}`))),
  };
}
