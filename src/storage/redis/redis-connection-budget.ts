/**
 * The SMTP connection budget shared by every process through Redis (scale-out): one window and
 * one cool-down key per (provider, egress). If Redis stops answering, each process holds the
 * budget on its own (rate-limiter-flexible's in-memory insurance) rather than stop probing or
 * probe unlimited.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { ConnectionBudget } from '../../verification/smtp/connection-budget.js';
import { createRateLimitedBudget, type RateLimitedBudgetOptions } from '../rate-limited-connection-budget.js';

export function createRedisConnectionBudget(redis: Redis, options: RateLimitedBudgetOptions): ConnectionBudget {
  return createRateLimitedBudget(
    (limiter) => new RateLimiterRedis({ storeClient: redis, ...limiter, insuranceLimiter: new RateLimiterMemory(limiter), rejectIfRedisNotReady: true }),
    options,
  );
}
