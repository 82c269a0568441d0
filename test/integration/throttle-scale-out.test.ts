/**
 * Scale-out (issue 21): two processes share one provider's connection budget through one Redis.
 * Two probers, each with its own Redis client and budget store (as two processes have), probe
 * addresses at Gmail's MX at once; the loopback SMTP server counts the connections it sees per
 * window against the budget, and a slow-down reply one process got cuts the other's budget too.
 * Runs where MAILSURE_TEST_REDIS_URL is set (CI); reported as skipped elsewhere.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisConnectionBudget } from '../../src/storage/redis/redis-connection-budget.js';
import type { BudgetTuning } from '../../src/verification/smtp/connection-budget.js';
import { createBatchingProber } from '../../src/verification/smtp/batch-prober.js';
import { createSmtpProber, type SmtpProber } from '../../src/verification/smtp/prober.js';
import { bursts, startCountingSmtp, type CountingSmtp } from '../helpers/counting-smtp.js';

const url = process.env.MAILSURE_TEST_REDIS_URL;
const WINDOW_S = 2;
const GAP_MS = (WINDOW_S * 1000) / 2;
const PER_WINDOW = 3;

describe.skipIf(!url)(`one provider's connection budget shared by two processes through Redis${url ? '' : ' (skipped: MAILSURE_TEST_REDIS_URL not set)'}`, () => {
  const clients: Redis[] = [];
  let smtp: CountingSmtp;
  beforeAll(async () => {
    smtp = await startCountingSmtp();
  });
  afterAll(async () => {
    clients.forEach((c) => c.disconnect());
    await smtp?.close();
  });

  /** One process: its own Redis client, budget store and prober (the real-time one, or the list one). */
  const processes = async (tuning: Partial<BudgetTuning> = {}) => {
    const keyPrefix = `mailsure-test:${randomUUID()}:smtp-budget`;
    const one = async (batching: boolean): Promise<SmtpProber> => {
      const redis = new Redis(url!);
      clients.push(redis);
      await redis.ping();
      const throttle = { budget: createRedisConnectionBudget(redis, { keyPrefix, windowSeconds: WINDOW_S, ...tuning }), perWindow: () => PER_WINDOW };
      const identity = { port: smtp.port, helo: 'probe.mailsure.com', from: 'verify@mailsure.com', maxSessionsPerHost: 20, throttle };
      return batching ? createBatchingProber({ ...identity, rcptsPerSession: 1 }) : createSmtpProber(identity);
    };
    return [await one(false), await one(true)] as const;
  };
  const gmail = () => ({ host: 'gmail-smtp-in.l.google.com', addresses: [smtp.address] });
  const probeFrom = (prober: SmtpProber, name: string, count: number) =>
    Array.from({ length: count }, (_, i) => prober.probe(gmail(), [`${name}${i}@gmail.com`], Date.now() + 60_000));

  it('the SMTP server sees no more than the profile budget per window from both processes together', async () => {
    const [a, b] = await processes();
    smtp.connections.length = 0;
    const outcomes = await Promise.all([...probeFrom(a, 'a', 6), ...probeFrom(b, 'b', 6)]);
    expect(new Set(outcomes.map((o) => o.kind))).toEqual(new Set(['replies']));
    expect(smtp.connections).toHaveLength(12);
    const sizes = bursts(smtp.connections, GAP_MS);
    // Each process alone would let 3 a window through: together they still get 3, not 6.
    expect(sizes.length).toBeGreaterThanOrEqual(4);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(PER_WINDOW);
  });

  it('a slow-down reply to one process cuts the budget of the other', async () => {
    const [a, b] = await processes({ coolDownSeconds: 600, slowDownCost: 3 });
    smtp.slowDown = true;
    await a.probe(gmail(), ['someone@gmail.com'], Date.now() + 10_000);
    smtp.slowDown = false;
    smtp.connections.length = 0;
    const outcomes = await Promise.all(probeFrom(b, 'b', 3));
    expect(new Set(outcomes.map((o) => o.kind))).toEqual(new Set(['replies']));
    // A connection costs the whole budget while cooling down: one a window.
    const sizes = bursts(smtp.connections, GAP_MS);
    expect(sizes).toEqual([1, 1, 1]);
  });
});
