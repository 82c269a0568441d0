/**
 * Issue 19, acceptance: every endpoint family under each dependency fault, on real servers the
 * test starts and stops — a redis-server of its own (paused with SIGSTOP: connections open, no
 * answers; killed and started again empty on the same port: a restart without persistence) and
 * real PostgreSQL (every table of the app's schema locked by another session). For each: every
 * endpoint answers (its normal answer, or the defined degraded one: 503 "try again" with
 * Retry-After), /readyz tells the truth, a list accepted before or during the fault finishes
 * without a restart, with every record counted. No durations are asserted: a hang fails the test
 * by its own time-out. The callback receiver that trickles bytes is in callback-sender.test.ts.
 * Runs where MAILSURE_TEST_DATABASE_URL is set and redis-server is installed (CI).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../src/wiring/redis.js';
import { createLogger } from '../../src/core/logger.js';
import { openPostgres } from '../../src/storage/postgres/open-postgres.js';
import { openStorage } from '../../src/storage/open-storage.js';
import type { Storage } from '../../src/storage/interfaces.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { multipart } from '../helpers/multipart.js';
import { freePort, haveRedisServer, startRedisServer } from '../helpers/redis-server.js';
import { Writable } from 'node:stream';
import { until } from '../helpers/until.js';

const databaseUrl = process.env.MAILSURE_TEST_DATABASE_URL;
const RECORDS = 30;
const CSV = `email\n${Array.from({ length: RECORDS }, (_, i) => `person${i}@example.com`).join('\n')}\n`;

describe.skipIf(!databaseUrl || !haveRedisServer)('faults: every endpoint under a stalled or emptied dependency', () => {
  const schema = `mailsure_faults_${randomBytes(5).toString('hex')}`;
  const quiet = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }));
  let redisPort: number;
  let redisServer: ChildProcess;
  let redis: ReturnType<typeof connectRedis>;
  let storage: Storage;
  let t: TestApp;
  let key: string;
  let finishedList: number;

  beforeAll(async () => {
    redisPort = await freePort();
    redisServer = await startRedisServer(redisPort);
    const redisUrl = `redis://127.0.0.1:${redisPort}/0`;
    redis = connectRedis(redisUrl, quiet);
    storage = await openStorage({
      databaseUrl: databaseUrl!,
      dataDir: '/nonexistent',
      schema,
      secretKey: randomBytes(32).toString('base64'),
      deadlines: { lockMs: 300, queryMs: 10_000 },
    });
    // The list queue on the same Redis (BullMQ), its worker in this process.
    t = await makeTestApp({ storage, redis, env: { MAILSURE_REDIS_URL: redisUrl } });
    await t.lifecycle.startBackground();
    key = (await t.key('faults', { services: 'all' })).key;
    finishedList = await submitList();
    await waitFinished(finishedList);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    redis?.disconnect();
    await storage?.close();
    if (redisServer && redisServer.exitCode === null) {
      redisServer.kill('SIGCONT');
      redisServer.kill('SIGKILL');
    }
    const admin = openPostgres({ url: databaseUrl! });
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin);
    await admin.destroy();
  }, 60_000);

  const json = (url: string, body: unknown) =>
    t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const submit = () => {
    const { payload, headers } = multipart([{ name: 'file', filename: 'people.csv', content: CSV }]);
    return t.app.inject({ method: 'POST', url: '/v5/list?header=true', headers: { ...headers, api_key: key }, payload });
  };
  async function submitList(): Promise<number> {
    const res = await submit();
    expect(res.statusCode, res.body).toBe(202);
    return (res.json() as { list_id: number }).list_id;
  }
  async function waitFinished(id: number): Promise<{ status: string; services: { email_validation: { completed_count: number } } }> {
    return until(
      async () => {
        const res = await t.app.inject({ url: `/v5/list/${id}`, headers: { api_key: key } });
        const body =
          res.statusCode === 200
            ? (res.json() as { status: string; services: { email_validation: { completed_count: number } } })
            : undefined;
        return body && ['Results', 'Error', 'Invalid', 'Cancelled'].includes(body.status) ? body : undefined;
      },
      { what: `list ${id} to finish`, everyMs: 200, withinMs: 120_000 },
    );
  }
  async function expectAllRecords(id: number): Promise<void> {
    const finished = await waitFinished(id);
    expect(finished.status).toBe('Results');
    expect(finished.services.email_validation.completed_count).toBe(RECORDS);
  }

  /** One call of every endpoint family, by name. */
  async function callEvery() {
    return {
      ev: await t.app.inject({ url: `/v5/ev?email=ann@example.com&api_key=${key}` }),
      td: await t.app.inject({ url: `/v5/td?email=ann@example.com&api_key=${key}` }),
      eiBulk: await json(`/v5/ei/bulk?api_key=${key}`, [{ email: 'ann@example.com' }, { email: 'bob@example.com' }]),
      eppend: await t.app.inject({ url: `/v5/eppend?first_name=Ann&last_name=Doe&zip=62701&api_key=${key}` }),
      eppendBulk: await json(`/v5/eppend/bulk?api_key=${key}`, [{ first_name: 'Ann', last_name: 'Doe', zip: '62701' }]),
      listStatus: await t.app.inject({ url: `/v5/list/${finishedList}`, headers: { api_key: key } }),
      listResults: await t.app.inject({ url: `/v5/list/${finishedList}/results`, headers: { api_key: key } }),
      listSubmit: await submit(),
    };
  }
  const NORMAL = { ev: 200, td: 200, eiBulk: 200, eppend: 200, eppendBulk: 200, listStatus: 200, listResults: 200, listSubmit: 202 };
  const statuses = (answers: Awaited<ReturnType<typeof callEvery>>) =>
    Object.fromEntries(Object.entries(answers).map(([name, res]) => [name, res.statusCode]));
  const ready = async () => (await t.app.inject({ url: '/readyz' })).statusCode;
  const listIdOf = (res: { statusCode: number; json(): unknown }) =>
    res.statusCode === 202 ? (res.json() as { list_id: number }).list_id : undefined;

  it('answers normally before any fault', async () => {
    expect(statuses(await callEvery())).toEqual(NORMAL);
    expect(await ready()).toBe(200);
  }, 120_000);

  it('Redis paused: every endpoint answers as usual, /readyz says Redis is not answering, a list accepted meanwhile finishes', async () => {
    const before = await submitList();
    redisServer.kill('SIGSTOP');
    let during: number | undefined;
    try {
      const answers = await callEvery();
      expect(statuses(answers)).toEqual(NORMAL);
      during = listIdOf(answers.listSubmit);
      const unready = await t.app.inject({ url: '/readyz' });
      expect(unready.statusCode).toBe(503);
      expect(unready.json()).toMatchObject({ error_code: 503, error_msg: 'redis is not answering' });
    } finally {
      redisServer.kill('SIGCONT');
    }
    await until(async () => (await ready()) === 200, { what: '/readyz to say ready', everyMs: 200, withinMs: 120_000 });
    await expectAllRecords(before);
    await expectAllRecords(during!);
  }, 240_000);

  it('Redis restarted empty: every endpoint answers, /readyz is ready again, lists accepted before the restart finish', async () => {
    // Accepted while Redis is paused (its queue jobs never reach it), then Redis dies and comes back empty.
    redisServer.kill('SIGSTOP');
    const lost = await submitList();
    redisServer.kill('SIGKILL');
    await once(redisServer, 'exit');
    redisServer = await startRedisServer(redisPort);
    await until(async () => (await ready()) === 200, { what: '/readyz to say ready', everyMs: 200, withinMs: 120_000 });
    const answers = await callEvery();
    expect(statuses(answers)).toEqual(NORMAL);
    await expectAllRecords(lost);
    await expectAllRecords(listIdOf(answers.listSubmit)!);
  }, 240_000);

  it('PostgreSQL with every table locked: each endpoint answers, normally or 503 "try again" with Retry-After; all is well after', async () => {
    const before = await submitList();
    const holder = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema}` });
    await holder.connect();
    let during: number | undefined;
    try {
      await holder.query('begin');
      const { rows } = await holder.query<{ tablename: string }>('select tablename from pg_tables where schemaname = $1', [schema]);
      expect(rows.length).toBeGreaterThan(0);
      for (const { tablename } of rows) await holder.query(`lock table "${tablename}" in access exclusive mode`);
      const answers = await callEvery();
      for (const [name, res] of Object.entries(answers)) {
        expect([NORMAL[name as keyof typeof NORMAL], 503], `${name}: ${res.statusCode} ${res.body}`).toContain(res.statusCode);
        if (res.statusCode === 503) {
          expect(res.json()).toEqual({ error_code: 503, error_msg: 'The database did not answer in time; try again' });
          expect(res.headers['retry-after']).toBe('5');
        }
      }
      // What reads the people table cannot answer from anywhere else.
      expect(answers.td.statusCode).toBe(503);
      during = listIdOf(answers.listSubmit);
      // The keys every call is authenticated with are locked: the process cannot serve, and says so.
      const unready = await t.app.inject({ url: '/readyz' });
      expect(unready.statusCode).toBe(503);
      expect(unready.json()).toMatchObject({ error_code: 503, error_msg: 'database is not answering' });
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    expect(statuses(await callEvery())).toEqual(NORMAL);
    expect(await ready()).toBe(200);
    await expectAllRecords(before);
    if (during !== undefined) await expectAllRecords(during);
  }, 240_000);
});
