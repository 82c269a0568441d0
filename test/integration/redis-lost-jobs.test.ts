/**
 * Issue 19 (2): when Redis loses its data (a restart without persistence, a failover, eviction),
 * the queue jobs of lists waiting to run are gone. A running worker must still find those lists
 * in the database and run them, without a restart. Here the API process queues into one Redis
 * database and the worker listens on another: for the worker, the list's jobs were lost.
 * Runs where MAILSURE_TEST_DATABASE_URL and MAILSURE_TEST_REDIS_URL are set (CI).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimRedisDb, type OwnRedisDb } from '../helpers/redis-db.js';
import { startTestWorld, type TestWorld } from '../helpers/world/index.js';
import { writeListCsv } from './list-csv.js';
import { createTestDatabase, dropTestDatabase } from './pg-database.js';
import { createKeyByCli, ListClient, startMailsure, type ChildMailsure, type ServerOptions } from './list-server.js';

const databaseUrl = process.env.MAILSURE_TEST_DATABASE_URL;
const redisUrl = process.env.MAILSURE_TEST_REDIS_URL;

describe.skipIf(!databaseUrl || !redisUrl)('lists whose queue jobs Redis lost', () => {
  let world: TestWorld;
  let dataDir: string;
  let database: string;
  let dbUrl: string;
  const children: ChildMailsure[] = [];
  /** The API process's and the worker's Redis databases, each its own. */
  let api: OwnRedisDb;
  let worker: OwnRedisDb;

  beforeAll(async () => {
    world = await startTestWorld();
    dataDir = await mkdtemp(join(tmpdir(), 'mailsure-lost-jobs-'));
    database = `mailsure_lost_jobs_${process.pid}`;
    dbUrl = await createTestDatabase(databaseUrl!, database);
    [api, worker] = [await claimRedisDb(redisUrl!), await claimRedisDb(redisUrl!)];
  }, 60_000);

  afterAll(async () => {
    await Promise.all(children.map((c) => c.kill().catch(() => undefined)));
    await world?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    await dropTestDatabase(databaseUrl!, database);
    await api?.release();
    await worker?.release();
  }, 60_000);

  it('are run by a running worker without a restart', async () => {
    const on = (redis: OwnRedisDb): ServerOptions => ({
      dataDir,
      env: { ...world.env, MAILSURE_DATABASE_URL: dbUrl, MAILSURE_REDIS_URL: redis.url },
    });
    const key = await createKeyByCli(on(api), 'lists', 'verification,lists');
    const [apiProcess, workerProcess] = await Promise.all([
      startMailsure({ ...on(api), command: ['serve', '--no-worker'] }),
      startMailsure({ ...on(worker), command: ['worker'] }),
    ]);
    children.push(apiProcess, workerProcess);
    const client = new ListClient(apiProcess.port, key);
    try {
      const file = await writeListCsv(join(dataDir, 'lost.csv'), 200);
      const id = await client.submit(file.path);
      // The worker started before the list existed and never saw its jobs: only its periodic look
      // in the database can find it (every 15 s).
      const finished = await client.waitFinished(id, { everyMs: 500, timeoutMs: 120_000 });
      expect(finished.status).toBe('Results');
      expect(finished.services.email_validation?.completed_count).toBe(200);
    } finally {
      client.close();
    }
  }, 180_000);
});
