/**
 * The SMTP connection budget's contract, run against the in-process store and against a real
 * Redis (where MAILSURE_TEST_REDIS_URL is set): no interval of the window's length holding more
 * than the budget (callers holding back to a window's end included), waiting for the next token
 * within the deadline, refusing past it, slow-down cutting the budget and the cut expiring.
 * No duration is asserted: each token taken is known to lie between the start and the answer of
 * its call, and only tokens certainly inside one interval are counted against the bound (so a
 * slow machine can weaken the check, never fail it). The exact pace is asserted on a fake clock
 * in memory/memory-connection-budget.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConnectionBudget } from '../verification/smtp/connection-budget.js';
import { createMemoryConnectionBudget } from './memory/memory-connection-budget.js';
import { createRedisConnectionBudget } from './redis/redis-connection-budget.js';
import type { RateLimitedBudgetOptions } from './rate-limited-connection-budget.js';
import { mostCertainlyInAnyInterval, seen, type Seen } from '../../test/helpers/sliding-window.js';
import { until } from '../../test/helpers/until.js';

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
  it.skipIf(!make)(
    'grants a token at once, then refuses when the deadline is before the next one (no burst of the whole budget)',
    async () => {
      const budget = await make!({ windowSeconds: 60 });
      expect(await budget.take(key, 3, never())).toBe(true);
      // 3 a minute: the next token 20 s later, not at once.
      expect(await budget.take(key, 3, never())).toBe(false);
      expect(await budget.take(key, 3, later(5_000))).toBe(false);
      // Another egress address and another provider have budgets of their own.
      expect(await budget.take({ ...key, egress: 'socks5://127.0.0.1:1080' }, 3, never())).toBe(true);
      expect(await budget.take({ ...key, provider: 'yahoo' }, 3, never())).toBe(true);
    },
  );

  it.skipIf(!make)(
    'no interval of the window’s length holds more than the budget, even when callers hold back to a window’s end',
    async () => {
      const budget = await make!({ windowSeconds: 2 });
      const taken = await holdBackThenPoll(() => budget.take(key, 2, never()), 2_000);
      expect(taken.length).toBeGreaterThan(0);
      expect(mostCertainlyInAnyInterval(taken, 2_000)).toBeLessThanOrEqual(2);
    },
  );

  it.skipIf(!make)('a caller whose deadline allows waits for the next window', async () => {
    const budget = await make!({ windowSeconds: 1 });
    expect(await budget.take(key, 1, never())).toBe(true);
    expect(await budget.take(key, 1, never())).toBe(false);
    expect(await budget.take(key, 1, later())).toBe(true);
  });

  it.skipIf(!make)('a slow-down reply makes each connection cost more: the cut budget holds in every interval', async () => {
    const budget = await make!({ windowSeconds: 2, coolDownSeconds: 600, slowDownCost: 2 });
    const slowKey = { provider: 'outlook-com', egress: 'direct' };
    expect(await budget.coolingDown(slowKey)).toBe(false);
    await budget.slowDown(slowKey);
    expect(await budget.coolingDown(slowKey)).toBe(true);
    // 2 per window at cost 2: one.
    const taken = await holdBackThenPoll(() => budget.take(slowKey, 2, never()), 2_000);
    expect(taken.length).toBeGreaterThan(0);
    expect(mostCertainlyInAnyInterval(taken, 2_000)).toBeLessThanOrEqual(1);
  });

  it.skipIf(!make)('the cut ends by itself: full price again', async () => {
    const budget = await make!({ windowSeconds: 60, coolDownSeconds: 1, slowDownCost: 60 });
    const slowKey = { provider: 'outlook-com', egress: 'direct' };
    await budget.slowDown(slowKey);
    expect(await budget.coolingDown(slowKey)).toBe(true);
    await until(async () => !(await budget.coolingDown(slowKey)));
    // 60 a minute, one a second: the second token comes within the deadline (it would come a
    // minute later at the cut price).
    expect(await budget.take(slowKey, 60, never())).toBe(true);
    expect(await budget.take(slowKey, 60, later(30_000))).toBe(true);
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

/**
 * An adversary of fixed windows: one token (opening a window), nothing until shortly before that
 * window would end, then three callers asking every 10 ms for a window and a half, never waiting.
 * A fixed window of the whole budget gives its rest just before its end and the next window's
 * whole budget right after. The tokens, each as seen from its call.
 */
async function holdBackThenPoll(take: () => Promise<boolean>, windowMs: number): Promise<Seen[]> {
  const taken: Seen[] = [];
  const attempt = async () => {
    const call = await seen(take);
    if (call.value) taken.push(call);
  };
  await attempt();
  await new Promise((resolve) => setTimeout(resolve, windowMs - 250));
  const stopAt = Date.now() + windowMs * 1.5;
  const poll = async () => {
    while (Date.now() < stopAt) {
      await attempt();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  await Promise.all([poll(), poll(), poll()]);
  return taken;
}
