/**
 * The per-key rate limit on real-time and bulk routes (default 500 calls a second, per key
 * `--rate`). In-process by default; with Redis every API process shares one counter per key.
 * A Redis outage lets calls through (and is logged) rather than taking the API down.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { errors } from '../core/errors.js';

export async function installRateLimit(app: FastifyInstance, redis: Redis | null, nameSpace = 'mailsure:rate:'): Promise<void> {
  await app.register(rateLimit, {
    // One shared counter per key across every rate-limited route: a per-route config would give
    // each route its own store. Routes that are not rate-limited are let through by allowList.
    global: true,
    hook: 'onRequest',
    allowList: (request) => request.routeOptions.config?.auth?.rateLimited !== true || !request.apiKey,
    timeWindow: 1_000,
    max: async (request) => request.apiKey?.rate ?? 1,
    keyGenerator: (request) => `k${request.apiKey?.id ?? 0}`,
    ...(redis ? { redis, nameSpace, skipOnError: true } : {}),
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
    errorResponseBuilder: (_request, context) => errors.rateLimited(context.ttl / 1000),
  });
}
