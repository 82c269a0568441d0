/**
 * Issue 19 (1): a Redis that stops answering without closing the connection (paused, overloaded)
 * must not hang the API: calls are still answered (the rate limit falls back to each process's
 * own) and /readyz tells the truth within seconds; when Redis answers again, so does everything.
 * A TCP proxy in front of the real Redis stops forwarding. Runs where MAILSURE_TEST_REDIS_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../src/wiring/redis.js';
import { createLogger } from '../../src/core/logger.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startPausableProxy, type PausableProxy } from '../helpers/pausable-proxy.js';
import { claimRedisDb, type OwnRedisDb } from '../helpers/redis-db.js';
import { until } from '../helpers/until.js';

const url = process.env.MAILSURE_TEST_REDIS_URL;

describe.skipIf(!url)('a paused Redis', () => {
  let proxy: PausableProxy;
  let t: TestApp;
  let key: string;
  const quiet = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }));
  let redis: ReturnType<typeof connectRedis>;
  let own: OwnRedisDb;

  beforeAll(async () => {
    const target = new URL(url!);
    proxy = await startPausableProxy({ host: target.hostname, port: Number(target.port || 6379) });
    own = await claimRedisDb(url!);
    redis = connectRedis(`redis://127.0.0.1:${proxy.port}/${own.db}`, quiet);
    t = await makeTestApp({ redis, rateLimitNamespace: `mailsure-test:${randomUUID()}` });
    key = (await t.key('k')).key;
  });
  afterAll(async () => {
    await t?.close();
    redis?.disconnect();
    await proxy?.close();
    await own?.release();
  });

  it('does not hang calls or /readyz, and recovers when Redis answers again', async () => {
    const ev = () => t.app.inject({ url: `/v5/ev?email=ann@example.com&api_key=${key}` });
    expect((await ev()).statusCode).toBe(200);
    // Ready before the pause (its Redis ping has a deadline a loaded machine can miss once: wait).
    await until(async () => (await t.app.inject({ url: '/readyz' })).statusCode === 200, { what: '/readyz to say ready', everyMs: 100 });

    proxy.pause();
    // Each answered, not hung (the test's own time-out would fail it): the rate limit is held in-process.
    for (let i = 0; i < 3; i++) {
      const res = await ev();
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ safe_to_send: { status_code: 10 } });
    }
    const unready = await t.app.inject({ url: '/readyz' });
    expect(unready.statusCode).toBe(503);
    expect(unready.json()).toMatchObject({ error_code: 503, error_msg: 'redis is not answering' });

    proxy.resume();
    await until(async () => (await t.app.inject({ url: '/readyz' })).statusCode === 200, {
      what: '/readyz to say ready again',
      everyMs: 100,
    });
    expect((await ev()).statusCode).toBe(200);
  });
});
