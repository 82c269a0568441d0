/** The API path's Redis client (rate limits, fact caches, session limits, shared quota). */
import { Redis } from 'ioredis';
import type { Logger } from '../core/logger.js';

/** Longest wait for one Redis command of the API path (the list queue has connections of its own). */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

export function connectRedis(url: string, logger: Logger): Redis {
  // Short timeouts: a rate-limit check must never hang a request on a sick Redis. A Redis that
  // keeps the connection open but stops answering (paused, overloaded) is caught only by a
  // command time-out; each user then falls back (the rate limit to its in-process insurance,
  // the fact caches to a miss, the session limit to this process's own).
  const redis = new Redis(url, {
    connectTimeout: 2_000,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
  });
  redis.on('error', (error) => logger.warn({ err: error }, 'redis error'));
  return redis;
}
