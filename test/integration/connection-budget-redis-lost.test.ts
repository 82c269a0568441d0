/**
 * The Redis connection budget when Redis is lost: "each process holds the budget on its own"
 * (rate-limiter-flexible's in-memory insurance behind every Redis limiter). A redis-server of the
 * test's own on loopback, with the client the app makes (connectRedis: its command time-out),
 * either stops answering (SIGSTOP: connections open, no answers; each command times out) or is
 * gone (SIGKILL: the client is not connected). Either way takes still succeed at the budget's
 * pace, never more than the budget in any window-long interval (never unlimited), a slow-down
 * still cuts this process's budget, and nothing throws. Tokens are counted as in the contract
 * test: each as the span of its call, only those certainly inside one interval (no duration
 * asserted). Runs where redis-server is installed (CI).
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectRedis } from '../../src/wiring/redis.js';
import { createLogger } from '../../src/core/logger.js';
import { redisLimiters } from '../../src/storage/redis/redis-connection-budget.js';
import { recordedBudget } from '../helpers/recorded-budget.js';
import { freePort, haveRedisServer, startRedisServer } from '../helpers/redis-server.js';
import { mostCertainlyInAnyInterval } from '../helpers/sliding-window.js';

const quiet = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }));
const never = () => Date.now() - 1;

const losses: [string, (server: ChildProcess, redis: Redis) => Promise<void>][] = [
  [
    'stops answering (paused)',
    async (server) => {
      server.kill('SIGSTOP');
    },
  ],
  [
    'is gone (killed)',
    async (server, redis) => {
      server.kill('SIGKILL');
      await once(server, 'exit');
      while (redis.status === 'ready') await new Promise((resolve) => setTimeout(resolve, 20));
    },
  ],
];

describe.skipIf(!haveRedisServer)(
  `the Redis connection budget when Redis is lost${haveRedisServer ? '' : ' (skipped: redis-server not installed)'}`,
  () => {
    let server: ChildProcess;
    let redis: Redis;
    beforeEach(async () => {
      const port = await freePort();
      server = await startRedisServer(port);
      redis = connectRedis(`redis://127.0.0.1:${port}/8`, quiet);
      await redis.ping();
    });
    afterEach(() => {
      redis?.disconnect();
      if (server && server.exitCode === null && server.signalCode === null) {
        server.kill('SIGCONT');
        server.kill('SIGKILL');
      }
    });

    const budget = (windowSeconds: number) =>
      recordedBudget(redisLimiters(redis), {
        keyPrefix: `mailsure-test:${randomUUID()}:smtp-budget`,
        windowSeconds,
        coolDownSeconds: 600,
        slowDownCost: 2,
      });

    it.each(losses)(
      'Redis %s: takes go on at the budget’s pace in this process, never more, a slow-down still cuts it, and nothing throws',
      async (_name, lose) => {
        const burst = budget(60);
        const paced = budget(4);
        // Through Redis while it answers.
        expect(await paced.budget.take({ provider: 'google', egress: 'socks5://127.0.0.1:1080' }, 4, never())).toBe(true);
        expect(await redis.dbsize()).toBeGreaterThan(0);

        await lose(server, redis);

        // 3 a minute: twenty callers at once, none waiting, get the one token of the budget's pace.
        const key = { provider: 'google', egress: 'direct' };
        const asked = await Promise.all(Array.from({ length: 20 }, () => burst.budget.take(key, 3, never())));
        expect(asked.filter(Boolean)).toHaveLength(1);

        // 4 per 4 s (one a second): six callers that may wait all get theirs, never more than 4 in an interval.
        const waited = await Promise.all(Array.from({ length: 6 }, () => paced.budget.take(key, 4, Date.now() + 40_000)));
        expect(waited).toEqual(Array(6).fill(true));
        const tokens = paced.taken().slice(1);
        expect(tokens).toHaveLength(6);
        expect(mostCertainlyInAnyInterval(tokens, 4_000)).toBeLessThanOrEqual(4);

        // A slow-down is held by this process: each connection then pays the cut pace too (4 a
        // minute at cost 2: one each 30 s).
        const slowKey = { provider: 'outlook-com', egress: 'direct' };
        await burst.budget.slowDown(slowKey);
        expect(await burst.budget.coolingDown(slowKey)).toBe(true);
        expect(await burst.budget.take(slowKey, 4, never())).toBe(true);
        expect(burst.taken('slow-pace')).toHaveLength(1);
        expect(await burst.budget.take(slowKey, 4, never())).toBe(false);
      },
      90_000,
    );
  },
);
