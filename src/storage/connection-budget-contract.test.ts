/**
 * The SMTP connection budget's contract, run against the in-process store and against a real
 * Redis (where MAILSURE_TEST_REDIS_URL is set): counts per window, waiting for the next window
 * within the deadline, refusing past it, slow-down cutting the budget and the cut expiring.
 * Time is observed only through the store's own windows (no durations asserted).
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConnectionBudget } from '../verification/smtp/connection-budget.js';
import { createMemoryConnectionBudget } from './memory/memory-connection-budget.js';
import { createRedisConnectionBudget } from './redis/redis-connection-budget.js';
import type { RateLimitedBudgetOptions } from './rate-limited-connection-budget.js';

const url = process.env.MAILSURE_TEST_REDIS_URL;
const clients: Redis[] = [];
afterAll(() => clients.forEach((c) => c.disconnect()));

type Make = (options: Omit<RateLimitedBudgetOptions, 'keyPrefix'>) => Promise<ConnectionBudget>;
const stores: [string, Make | undefined][] = [
  ['memory', async (options) => createMemoryConnectionBudget(options)],
  [
    `redis${url ? '' : ' (skipped: MAILSURE_TEST_REDIS_URL not set)'}`,
    url
      ? async (options) => {
          const redis = new Redis(url);
          clients.push(redis);
          await redis.ping();
          return createRedisConnectionBudget(redis, { keyPrefix: `mailsure-test:${randomUUID()}`, ...options });
        }
      : undefined,
  ],
];

const key = { provider: 'google', egress: 'direct' };
const never = () => Date.now() - 1;
const later = (ms = 10_000) => Date.now() + ms;

describe.each(stores)('connection budget (%s)', (_name, make) => {
  it.skipIf(!make)('grants perWindow connections, then refuses when the deadline is before the next window', async () => {
    const budget = await make!({ windowSeconds: 60 });
    for (let i = 0; i < 3; i++) expect(await budget.take(key, 3, never())).toBe(true);
    expect(await budget.take(key, 3, later(5_000))).toBe(false);
    // Another egress address and another provider have budgets of their own.
    expect(await budget.take({ ...key, egress: 'socks5://127.0.0.1:1080' }, 3, never())).toBe(true);
    expect(await budget.take({ ...key, provider: 'yahoo' }, 3, never())).toBe(true);
  });

  it.skipIf(!make)('a caller whose deadline allows waits for the next window', async () => {
    const budget = await make!({ windowSeconds: 1 });
    expect(await budget.take(key, 1, never())).toBe(true);
    expect(await budget.take(key, 1, never())).toBe(false);
    expect(await budget.take(key, 1, later())).toBe(true);
  });

  it.skipIf(!make)('a slow-down reply makes each connection cost more until the cool-down ends by itself', async () => {
    const budget = await make!({ windowSeconds: 60, coolDownSeconds: 1, slowDownCost: 2 });
    const slowKey = { provider: 'outlook-com', egress: 'direct' };
    expect(await budget.coolingDown(slowKey)).toBe(false);
    await budget.slowDown(slowKey);
    expect(await budget.coolingDown(slowKey)).toBe(true);
    // 4 per window at cost 2: two connections.
    expect(await budget.take(slowKey, 4, never())).toBe(true);
    expect(await budget.take(slowKey, 4, never())).toBe(true);
    expect(await budget.take(slowKey, 4, never())).toBe(false);
    await waitFor(async () => !(await budget.coolingDown(slowKey)));
    // A fresh key after the cool-down: full price again (4 connections).
    const fresh = { provider: 'outlook-com', egress: 'socks5://127.0.0.2:1080' };
    await budget.slowDown(fresh);
    await waitFor(async () => !(await budget.coolingDown(fresh)));
    for (let i = 0; i < 4; i++) expect(await budget.take(fresh, 4, never())).toBe(true);
    expect(await budget.take(fresh, 4, never())).toBe(false);
  });

  it.skipIf(!make)('a cost above the budget is capped: one connection per window still goes', async () => {
    const budget = await make!({ windowSeconds: 60, slowDownCost: 10 });
    await budget.slowDown(key);
    expect(await budget.take(key, 3, never())).toBe(true);
    expect(await budget.take(key, 3, never())).toBe(false);
  });
});

describe('connection budget tuning', () => {
  it('refuses a window, cool-down or cost that is not a positive whole number', () => {
    expect(() => createMemoryConnectionBudget({ windowSeconds: 0.5 })).toThrow('windowSeconds must be a positive integer, got 0.5');
    expect(() => createMemoryConnectionBudget({ slowDownCost: 0 })).toThrow('slowDownCost must be a positive integer, got 0');
  });

  it('refuses a budget of zero connections', async () => {
    await expect(createMemoryConnectionBudget().take(key, 0, later())).rejects.toThrow('perWindow must be a positive integer, got 0');
  });
});

async function waitFor(condition: () => Promise<boolean>, bound = 15_000): Promise<void> {
  const until = Date.now() + bound;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met within the bound');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
