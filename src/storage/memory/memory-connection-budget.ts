/** The SMTP connection budget of this process alone (the embedded default). */
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { ConnectionBudget } from '../../verification/smtp/connection-budget.js';
import { createRateLimitedBudget, type LimiterFactory, type RateLimitedBudgetOptions } from '../rate-limited-connection-budget.js';

export const memoryLimiters: LimiterFactory = (limiter) => new RateLimiterMemory(limiter);

export function createMemoryConnectionBudget(options: Partial<RateLimitedBudgetOptions> = {}): ConnectionBudget {
  return createRateLimitedBudget(memoryLimiters, { keyPrefix: 'smtp-budget', ...options });
}
