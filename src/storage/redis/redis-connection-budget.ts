/**
 * The SMTP connection budget shared by every process through Redis (scale-out): the paces' short
 * windows and one cool-down key per (provider, egress), so the bound holds for all processes
 * together. If Redis stops answering (a command times out: the client needs a command time-out,
 * as connectRedis's has) or is gone (not connected), each process holds the budget on its own, at
 * the same pace, through rate-limiter-flexible's in-memory insurance: never unlimited, never
 * stopped, and n processes then take up to about n times the budget. A slow-down recorded while Redis
 * is away may be known only to the process that got it.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { ConnectionBudget } from '../../verification/smtp/connection-budget.js';
import { createRateLimitedBudget, type LimiterFactory, type RateLimitedBudgetOptions } from '../rate-limited-connection-budget.js';

export function redisLimiters(redis: Redis): LimiterFactory {
  return (limiter) =>
    new RateLimiterRedis({ storeClient: redis, ...limiter, insuranceLimiter: new RateLimiterMemory(limiter), rejectIfRedisNotReady: true });
}

export function createRedisConnectionBudget(redis: Redis, options: RateLimitedBudgetOptions): ConnectionBudget {
  return createRateLimitedBudget(redisLimiters(redis), options);
}
