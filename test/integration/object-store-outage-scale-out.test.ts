/**
 * Issue 31 (1, 2) on the scale-out layout: an API process that runs no lists and two list workers
 * on one real PostgreSQL and one real Redis (BullMQ), their list files in an object store (s3rver
 * on loopback), each with a data directory of its own. The store stops answering while the
 * workers need it — paused (a proxy before s3rver that forwards nothing) when they fetch a list's
 * upload, refused (s3rver stopped) when they store its results — and each list waits and goes on
 * when the store is back: every row once and in order, billed once, whichever worker did what.
 * Runs where MAILSURE_TEST_DATABASE_URL and MAILSURE_TEST_REDIS_URL are set (CI).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/storage/postgres/open-postgres.js';
import { openStorage } from '../../src/storage/open-storage.js';
import type { Storage } from '../../src/storage/interfaces.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { multipart } from '../helpers/multipart.js';
import { startPausableProxy, type PausableProxy } from '../helpers/pausable-proxy.js';
import { claimRedisDb, type OwnRedisDb } from '../helpers/redis-db.js';
import { startTestS3, type TestS3 } from '../helpers/s3-server.js';
import { unzip } from '../helpers/unzip.js';
import { until } from '../helpers/until.js';

const databaseUrl = process.env.MAILSURE_TEST_DATABASE_URL;
const redisUrl = process.env.MAILSURE_TEST_REDIS_URL;
const ROWS = 600;
const CSV = ['email', ...Array.from({ length: ROWS }, (_, i) => `user${i}@example.com`)].join('\n') + '\n';

/** Resolves once the condition holds (an event the test waits for, never a timed sleep); a generous bound only to fail with what was seen. */
describe.skipIf(!databaseUrl || !redisUrl)('an object-store outage with two list workers on PostgreSQL and Redis', () => {
  const schema = `mailsure_store_outage_${randomBytes(5).toString('hex')}`;
  let ownRedis: OwnRedisDb;
  let s3: TestS3;
  let proxy: PausableProxy;
  const storages: Storage[] = [];
  let api: TestApp;
  const workers: TestApp[] = [];
  let key: string;
  let keyId: number;
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    s3 = await startTestS3();
    proxy = await startPausableProxy({ host: '127.0.0.1', port: Number(new URL(s3.endpoint).port) });
    ownRedis = await claimRedisDb(redisUrl!);
    const queueRedis = ownRedis.url;
    const secretKey = randomBytes(32).toString('base64');
    // Each process its own pool on the one database (migrations once, by the first).
    for (let i = 0; i < 3; i++)
      storages.push(
        await openStorage({
          databaseUrl: databaseUrl!,
          dataDir: '/nonexistent',
          schema,
          secretKey,
          deadlines: { lockMs: 5_000, queryMs: 30_000 },
        }),
      );
    const store = Object.fromEntries(Object.entries(s3.env('outage')).filter(([name]) => name.startsWith('MAILSURE_')));
    // The AWS credential chain reads the process's environment, as it does in production.
    for (const [name, value] of Object.entries(s3.env('outage'))) {
      if (!name.startsWith('AWS_')) continue;
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    const env = { ...store, MAILSURE_REDIS_URL: queueRedis };
    api = await makeTestApp({ env, storage: storages[0]!, runLists: false });
    // The workers reach the store through the proxy; no silence over 300 ms there (30 s in
    // production), and a list waiting for it tries again after 50 ms, 100 ms…
    const viaProxy = { ...env, MAILSURE_LIST_STORE_ENDPOINT: `http://127.0.0.1:${proxy.port}` };
    for (const storage of storages.slice(1)) {
      workers.push(
        await makeTestApp({
          env: viaProxy,
          storage,
          listRetryMs: 50,
          listStoreDeadlines: { connectionTimeout: 1_000, socketTimeout: 300 },
        }),
      );
    }
    // With enrichment: report=true then waits Processed for the purchase of its fields.
    const created = await api.key('acme', { services: 'verification,enrichment,lists', fields: 'age' });
    key = created.key;
    keyId = created.record.id;
  }, 60_000);

  afterAll(async () => {
    for (const t of [...workers, api]) await t?.close();
    for (const storage of storages) await storage.close();
    await proxy?.close();
    await s3?.close();
    const admin = openPostgres({ url: databaseUrl! });
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin);
    await admin.destroy();
    await ownRedis?.release();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }, 60_000);

  const submit = async (query: string) => {
    const { payload, headers } = multipart([{ name: 'file', filename: 'people.csv', content: CSV }]);
    const res = await api.app.inject({ method: 'POST', url: `/v5/list${query}`, headers: { ...headers, api_key: key }, payload });
    expect(res.statusCode).toBe(202);
    return (res.json() as { list_id: number }).list_id;
  };
  const status = async (id: number) =>
    (await api.app.inject({ url: `/v5/list/${id}`, headers: { api_key: key } })).json() as Record<string, unknown>;
  const waits = (id: number) =>
    workers.reduce((n, w) => n + w.logs.filter((line) => line.includes(`list ${id} waits: the list store did not answer`)).length, 0);
  const finished = (id: number) =>
    until(async () => !['Pending', 'Processing', 'Processed'].includes((await status(id)).status as string), {
      what: `list ${id} to finish`,
      everyMs: 20,
      withinMs: 90_000,
      seen: async () => ({ list: await status(id), waits: waits(id), logs: workers.map((w) => w.logs.slice(-5)) }),
    });
  /** Every row once and in order, the chunks committed once each, and the records billed so far. */
  const checkWhole = async (id: number) => {
    const results = await api.app.inject({ url: `/v5/list/${id}/results`, headers: { api_key: key } });
    expect(results.statusCode).toBe(200);
    const text = (await unzip(results.rawPayload))[`people-${id}-Service.csv`]!;
    expect(
      text
        .split(/\r?\n/)
        .filter(Boolean)
        .map((line) => line.split(',')[0]),
    ).toEqual(CSV.trim().split('\n'));
    const db = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema}` });
    await db.connect();
    try {
      const chunks = await db.query<{ n: number; records: number }>(
        'select count(*)::int as n, sum(records)::int as records from list_chunks where list_id = $1',
        [id],
      );
      expect(chunks.rows[0]).toEqual({ n: ROWS / 50, records: ROWS });
    } finally {
      await db.end();
    }
  };

  it('a list whose upload the workers cannot fetch (the store paused) waits Pending, then runs whole once, billed once', async () => {
    proxy.pause();
    let id: number;
    try {
      // The API process stores the upload directly; the workers, behind the paused proxy, cannot fetch it.
      id = await submit('?header=true');
      await until(async () => waits(id) >= 2 || (await status(id)).status !== 'Pending', { withinMs: 90_000 });
      expect(await status(id)).toMatchObject({ status: 'Pending' });
    } finally {
      proxy.resume();
    }
    await finished(id);
    expect(await status(id)).toMatchObject({ status: 'Results', records: ROWS, services: { email_validation: { completed_count: ROWS } } });
    await checkWhole(id);
    expect((await api.storage.usage.totals(keyId)).list_record).toBe(ROWS);
  }, 120_000);

  it('a list whose results cannot be stored (the store refusing) waits Processing, then finishes whole, billed once', async () => {
    // report=true: the list waits Processed for its purchase, so the outage begins at a known point.
    const id = await submit('?header=true&report=true');
    await until(async () => (await status(id)).status === 'Processed', {
      what: `list ${id} to be Processed`,
      everyMs: 20,
      withinMs: 90_000,
      seen: async () => ({ list: await status(id), logs: workers.map((w) => w.logs.slice(-5)) }),
    });
    const billedBefore = (await api.storage.usage.totals(keyId)).list_record ?? 0;
    await s3.stop();
    try {
      expect((await api.app.inject({ method: 'POST', url: `/v5/list/${id}/purchase`, headers: { api_key: key } })).statusCode).toBe(200);
      // The purchase may land before the worker has marked every service complete: the list
      // is Processed for a moment more, then Processing, where its results wait for the store.
      await until(
        async () => {
          const now = (await status(id)).status as string;
          return (waits(id) >= 2 && now === 'Processing') || !['Processed', 'Processing'].includes(now);
        },
        { what: `list ${id} to wait Processing`, withinMs: 90_000, seen: async () => ({ list: await status(id), waits: waits(id) }) },
      );
      expect(await status(id)).toMatchObject({ status: 'Processing' });
      expect((await api.storage.usage.totals(keyId)).list_record ?? 0).toBe(billedBefore);
    } finally {
      await s3.restart();
    }
    await finished(id);
    expect(await status(id)).toMatchObject({ status: 'Results', records: ROWS });
    await checkWhole(id);
    expect((await api.storage.usage.totals(keyId)).list_record).toBe(billedBefore + ROWS);
    expect(await s3.keys(`outage/lists/${id}/`)).toEqual([`outage/lists/${id}/results.zip`, `outage/lists/${id}/upload.csv`]);
  }, 120_000);
});
