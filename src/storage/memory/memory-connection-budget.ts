/** The SMTP connection budget of this process alone (the embedded default). */
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { ConnectionBudget } from '../../verification/smtp/connection-budget.js';
import { createRateLimitedBudget, type RateLimitedBudgetOptions } from '../rate-limited-connection-budget.js';

export function createMemoryConnectionBudget(options: Partial<RateLimitedBudgetOptions> = {}): ConnectionBudget {
  return createRateLimitedBudget((limiter) => new RateLimiterMemory(limiter), { keyPrefix: 'smtp-budget', ...options });
}
