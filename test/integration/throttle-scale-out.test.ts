/**
 * Scale-out (issue 21): two processes share one provider's connection budget through one Redis.
 * Two probers, each with its own Redis client and budget store (as two processes have), probe
 * addresses at Gmail's MX at once; the tokens both took (noted by their limiters, each as the span
 * of its call) are counted against the budget in every window-long interval, only those certainly
 * inside one counting (no duration asserted: a slow machine can weaken the check, never fail it);
 * every connection the loopback SMTP server saw came after a token; and a slow-down reply one
 * process got cuts the other's budget too.
 * Runs where MAILSURE_TEST_REDIS_URL is set (CI); reported as skipped elsewhere.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisLimiters } from '../../src/storage/redis/redis-connection-budget.js';
import type { BudgetTuning } from '../../src/verification/smtp/connection-budget.js';
import { createBatchingProber } from '../../src/verification/smtp/batch-prober.js';
import { createEgressPool } from '../../src/verification/smtp/egress-pool.js';
import { createSmtpProber, type SmtpProber } from '../../src/verification/smtp/prober.js';
import { startCountingSmtp, type CountingSmtp } from '../helpers/counting-smtp.js';
import { recordedBudget, type RecordedBudget } from '../helpers/recorded-budget.js';
import { mostCertainlyInAnyInterval, type Seen } from '../helpers/sliding-window.js';

const url = process.env.MAILSURE_TEST_REDIS_URL;
// 3 per 3 s: one token a second.
const WINDOW_S = 3;
const WINDOW_MS = WINDOW_S * 1000;
const PER_WINDOW = 3;

describe.skipIf(!url)(
  `one provider's connection budget shared by two processes through Redis${url ? '' : ' (skipped: MAILSURE_TEST_REDIS_URL not set)'}`,
  () => {
    const clients: Redis[] = [];
    let smtp: CountingSmtp;
    beforeAll(async () => {
      smtp = await startCountingSmtp();
    });
    afterAll(async () => {
      clients.forEach((c) => c.disconnect());
      await smtp?.close();
    });

    /**
     * One process: its own Redis client, budget store (the Redis one, its limiters noting each
     * token) and prober (the real-time one, or the list one).
     */
    const processes = async (tuning: Partial<BudgetTuning> = {}) => {
      const keyPrefix = `mailsure-test:${randomUUID()}:smtp-budget`;
      const one = async (batching: boolean): Promise<{ prober: SmtpProber; recorded: RecordedBudget }> => {
        const redis = new Redis(url!);
        clients.push(redis);
        await redis.ping();
        const recorded = recordedBudget(redisLimiters(redis), { keyPrefix, windowSeconds: WINDOW_S, ...tuning });
        const throttle = { budget: recorded.budget, perWindow: () => PER_WINDOW };
        const identity = { port: smtp.port, helo: 'probe.mailsure.com', from: 'verify@mailsure.com', maxSessionsPerHost: 20, throttle };
        return { prober: batching ? createBatchingProber({ ...identity, rcptsPerSession: 1 }) : createSmtpProber(identity), recorded };
      };
      return [await one(false), await one(true)] as const;
    };
    /** Every connection the server saw came after a token was asked for (one token each). */
    const expectEachAfterItsToken = (tokens: readonly Seen[]) => {
      expect(tokens).toHaveLength(smtp.connections.length);
      const asked = tokens.map((t) => t.from).sort((x, y) => x - y);
      [...smtp.connections].sort((x, y) => x - y).forEach((at, k) => expect(at).toBeGreaterThanOrEqual(asked[k]!));
    };
    const gmail = () => ({ host: 'gmail-smtp-in.l.google.com', addresses: [smtp.address] });
    const probeFrom = (prober: SmtpProber, name: string, count: number) =>
      Array.from({ length: count }, (_, i) => prober.probe(gmail(), [`${name}${i}@gmail.com`], Date.now() + 60_000));

    it('no interval of a window holds more than the profile budget from both processes together', async () => {
      const [a, b] = await processes();
      smtp.connections.length = 0;
      const outcomes = await Promise.all([...probeFrom(a.prober, 'a', 4), ...probeFrom(b.prober, 'b', 4)]);
      expect(new Set(outcomes.map((o) => o.kind))).toEqual(new Set(['replies']));
      expect(smtp.connections).toHaveLength(8);
      const tokens = [...a.recorded.taken(), ...b.recorded.taken()];
      expect(a.recorded.taken().length).toBeGreaterThan(0);
      expect(b.recorded.taken().length).toBeGreaterThan(0);
      // Each process alone would take 3 a window: together they still take 3, not 6.
      expect(mostCertainlyInAnyInterval(tokens, WINDOW_MS)).toBeLessThanOrEqual(PER_WINDOW);
      expectEachAfterItsToken(tokens);
    });

    it('with two egresses, each egress’s budget is one for both processes, and both egresses carry probes', async () => {
      const keyPrefix = `mailsure-test:${randomUUID()}:smtp-budget`;
      const sources = ['127.0.0.235', '127.0.0.236'];
      const one = async () => {
        const redis = new Redis(url!);
        clients.push(redis);
        await redis.ping();
        const recorded = recordedBudget(redisLimiters(redis), { keyPrefix, windowSeconds: WINDOW_S });
        const pool = createEgressPool(
          sources.map((localAddress, i) => ({ label: `egress-${i + 1}`, helo: 'probe.mailsure.com', localAddress })),
          { providerOf: (host) => (host.endsWith('google.com') ? 'google' : undefined) },
        );
        const throttle = { budget: recorded.budget, perWindow: () => PER_WINDOW };
        const prober = createBatchingProber({
          port: smtp.port,
          helo: 'probe.mailsure.com',
          from: 'verify@mailsure.com',
          maxSessionsPerHost: 20,
          rcptsPerSession: 1,
          throttle,
          pool,
          egress: pool.chooser,
        });
        return { prober, recorded };
      };
      const [a, b] = [await one(), await one()];
      smtp.connections.length = 0;
      smtp.from.length = 0;
      const outcomes = await Promise.all([...probeFrom(a.prober, 'a', 6), ...probeFrom(b.prober, 'b', 6)]);
      expect(new Set(outcomes.map((o) => o.kind))).toEqual(new Set(['replies']));
      // Both egresses carried connections, each from its own source address.
      expect(new Set(smtp.from)).toEqual(new Set(sources));
      for (const source of sources) {
        const tokens = [...a.recorded.taken('pace', `source ${source}`), ...b.recorded.taken('pace', `source ${source}`)];
        expect(tokens.length).toBe(smtp.from.filter((f) => f === source).length);
        // Each egress's budget holds across both processes: 3 a window, not 6.
        expect(mostCertainlyInAnyInterval(tokens, WINDOW_MS)).toBeLessThanOrEqual(PER_WINDOW);
      }
      expectEachAfterItsToken([...a.recorded.taken(), ...b.recorded.taken()]);
    });

    it('a slow-down reply to one process cuts the budget of the other', async () => {
      const [a, b] = await processes({ coolDownSeconds: 600, slowDownCost: 3 });
      smtp.slowDown = true;
      await a.prober.probe(gmail(), ['someone@gmail.com'], Date.now() + 10_000);
      smtp.slowDown = false;
      smtp.connections.length = 0;
      const outcomes = await Promise.all(probeFrom(b.prober, 'b', 3));
      expect(new Set(outcomes.map((o) => o.kind))).toEqual(new Set(['replies']));
      // A connection costs the whole budget while cooling down: one a window, each of the other
      // process's connections paying the cut pace.
      const cut = b.recorded.taken('slow-pace');
      expect(cut).toHaveLength(3);
      expect(mostCertainlyInAnyInterval(cut, WINDOW_MS)).toBeLessThanOrEqual(1);
      expectEachAfterItsToken(cut);
    });
  },
);
