/**
 * Scale-out on the real PostgreSQL and Redis (issue acceptance): two API processes
 * (`serve --no-worker`) and two workers (`mailsure worker`) as child processes on one database
 * and one Redis, their list files either in one shared data directory or in an object store
 * (MAILSURE_LIST_STORE, each process with a data directory of its own, nothing shared on disk).
 * A list submitted on one API process is visible on the other; both workers work on it at once;
 * one is killed with SIGKILL half-way; the results are those of an uninterrupted run of the same
 * file. One key's record-rate block holds across both API processes. Each layout runs in a test file of its
 * own (scale-out.test.ts, scale-out-object-store.test.ts), where MAILSURE_TEST_DATABASE_URL and
 * MAILSURE_TEST_REDIS_URL are set (CI); skipped elsewhere.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestS3 } from '../helpers/s3-server.js';
import { claimRedisDb, type OwnRedisDb } from '../helpers/redis-db.js';
import { startTestWorld, type TestWorld } from '../helpers/world/index.js';
import { writeListCsv } from './list-csv.js';
import { createTestDatabase, dropTestDatabase } from './pg-database.js';
import { createKeyByCli, ListClient, startMailsure, type ChildMailsure, type ServerOptions } from './list-server.js';

const databaseUrl = process.env.MAILSURE_TEST_DATABASE_URL;
const redisUrl = process.env.MAILSURE_TEST_REDIS_URL;
const RECORDS = Number(process.env.MAILSURE_SCALE_TEST_RECORDS ?? 200_000);
/**
 * Records in the bulk call that blocks the limited key (at one record a second): the seconds its
 * block lasts in the shared counter, far longer than the test's next two calls can take.
 */
const RECORD_BLOCK = 600;

export interface ScaleOutLayout {
  /** Names the layout in the test's title. */
  name: string;
  /** An object store for the list files; without it every process shares one data directory. */
  objectStore?: () => Promise<TestS3>;
}

export function runScaleOut(layout: ScaleOutLayout): void {
  describe.skipIf(!databaseUrl || !redisUrl)(`scale-out: 2 API processes and 2 workers on PostgreSQL and Redis, ${layout.name}`, () => {
    let world: TestWorld;
    let dataDir: string;
    let s3: TestS3 | undefined;
    let database: string;
    /** A Redis database of its own, empty: the queue and the limiter start clean. */
    let ownRedis: OwnRedisDb;
    let options: ServerOptions;
    const children: ChildMailsure[] = [];
    /** Each process's options: the one shared data directory, or one of its own beside the object store's prefix. */
    let own = 0;
    const processOptions = (): ServerOptions => (s3 ? { ...options, dataDir: join(dataDir, `process-${++own}`) } : options);

    beforeAll(async () => {
      world = await startTestWorld();
      dataDir = await mkdtemp(join(tmpdir(), 'mailsure-scale-'));
      s3 = await layout.objectStore?.();
      database = `mailsure_scale_${process.pid}`;
      const databaseOfTest = await createTestDatabase(databaseUrl!, database);
      ownRedis = await claimRedisDb(redisUrl!);
      options = {
        dataDir,
        env: {
          ...world.env,
          MAILSURE_DATABASE_URL: databaseOfTest,
          MAILSURE_REDIS_URL: ownRedis.url,
          MAILSURE_LIST_WORKERS: '2',
          // Nothing shared on disk: the webhook-secret key comes from the environment, the files from the store.
          ...(s3 ? { ...s3.env('scale'), MAILSURE_SECRET_KEY: randomBytes(32).toString('base64') } : {}),
        },
      };
    }, 60_000);

    afterAll(async () => {
      await Promise.all(children.map((c) => c.kill().catch(() => undefined)));
      await world?.close();
      await s3?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
      if (database) await dropTestDatabase(databaseUrl!, database);
      await ownRedis?.release();
    }, 60_000);

    it('shares one list between both workers, survives a killed worker and holds one key limit across API processes', async () => {
      const listKey = await createKeyByCli(processOptions(), 'lists', 'verification,lists');
      const limitedKey = await createKeyByCli(processOptions(), 'limited', 'verification,enrichment', '100000', ['--record-rate', '1']);
      const [apiA, apiB, w1, w2] = await Promise.all([
        startMailsure({ ...processOptions(), command: ['serve', '--no-worker'] }),
        startMailsure({ ...processOptions(), command: ['serve', '--no-worker'] }),
        startMailsure({ ...processOptions(), command: ['worker'] }),
        startMailsure({ ...processOptions(), command: ['worker'] }),
      ]);
      children.push(apiA, apiB, w1, w2);
      const onA = new ListClient(apiA.port, listKey);
      const onB = new ListClient(apiB.port, listKey);
      try {
        const file = await writeListCsv(join(dataDir, 'scale.csv'), RECORDS);
        // A gate on chunk commits, held by this test: while it is shut a worker can lease chunks
        // and work on them, but its commit (an INSERT into list_chunks) waits for the table lock,
        // so the list cannot move on. What the test must see — both workers holding chunks, then a
        // kill at 30 % or more while the list is still Pending — then depends on no machine's speed.
        const gate = new pg.Client({ connectionString: options.env.MAILSURE_DATABASE_URL });
        await gate.connect();
        const shut = async () => {
          await gate.query('begin');
          // EXCLUSIVE still lets plain reads through: status calls and the workers' chunk counts.
          await gate.query('lock table list_chunks in exclusive mode');
        };
        const open = () => gate.query('commit');
        await shut();
        const id = await onA.submit(file.path);
        // Visible on the other API process at once.
        expect((await onB.status(id)).list_id).toBe(id);

        // Which worker processes hold leases on the list's chunks (a process's concurrent runs
        // lease as `host:pid`, `host:pid#1`, …).
        const db = new pg.Client({ connectionString: options.env.MAILSURE_DATABASE_URL });
        await db.connect();
        const holders = async (): Promise<Set<number>> => {
          const rows = await db.query<{ worker: string }>(
            `select distinct worker from list_chunk_claims where list_id = $1 and chunk_index >= 0`,
            [id],
          );
          return new Set(rows.rows.map((r) => Number(/:(\d+)(#\d+)?$/.exec(r.worker)?.[1])));
        };
        const completed = async () => {
          const s = await onB.status(id);
          return { status: s.status, done: s.services.email_validation?.completed_count ?? 0, error: s.error };
        };
        try {
          // The list's four queue jobs go two to each worker process (two runs each): both lease
          // chunks, however late either started, since no chunk can be committed yet.
          for (const deadline = Date.now() + 180_000; (await holders()).size < 2;) {
            if (Date.now() > deadline)
              throw new Error(
                `only workers ${[...(await holders())].join(', ')} leased chunks; list ${JSON.stringify(await completed())}\n${children.flatMap((c) => c.errors()).join('\n')}`,
              );
            await new Promise((r) => setTimeout(r, 200));
          }
          // Commits through a step at a time: reopening and shutting at once lets in only the
          // commits already waiting (at most the chunks in flight: 2 processes × 2 runs × 4), so a
          // step moves the list a few percent and it cannot finish before the kill.
          let progress = await completed();
          while (progress.done < RECORDS * 0.3) {
            expect(progress.status).toBe('Pending');
            await open();
            await shut();
            progress = await completed();
            if (progress.done < RECORDS * 0.3) await new Promise((r) => setTimeout(r, 200));
          }
          // Kill one worker half-way, while both work on the list at once.
          expect(progress.status).toBe('Pending');
          expect(progress.done).toBeLessThan(RECORDS);
          expect(await holders()).toEqual(new Set([w1.pid, w2.pid]));
          await w1.kill();
          await open();
          const finished = await onA.waitFinished(id, { everyMs: 500, timeoutMs: 240_000 });
          expect(finished.status).toBe('Results');
          expect(finished.services.email_validation).toMatchObject({ input_count: RECORDS, completed_count: RECORDS, status: 'Completed' });
          expect(await holders()).toEqual(new Set([w1.pid, w2.pid]));
          // Billed once, though two processes (and several runs in each) shared it.
          const billed = await db.query<{ n: string }>(`select coalesce(sum(count), 0) as n from usage_daily where unit = 'list_record'`);
          expect(Number(billed.rows[0]!.n)).toBe(RECORDS);
        } finally {
          await gate.end();
          await db.end();
        }

        // The same file again, uninterrupted (by the surviving worker): byte-identical results.
        const again = await onB.submit(file.path);
        const againDone = await onB.waitFinished(again, { everyMs: 500, timeoutMs: 240_000 });
        expect(againDone.status, `${JSON.stringify(againDone)}\n${children.flatMap((c) => c.errors()).join('\n')}`).toBe('Results');
        const first = await onA.results(id);
        const second = await onB.results(again);
        // Row by row first, so that a difference names its rows rather than two unequal buffers.
        const firstRows = parse(first.content, { relax_column_count: true, bom: true }) as string[][];
        const secondRows = parse(second.content, { relax_column_count: true, bom: true }) as string[][];
        const differing = firstRows.flatMap((r, i) =>
          JSON.stringify(r) === JSON.stringify(secondRows[i]) ? [] : [{ row: i, first: r, again: secondRows[i] }],
        );
        expect(differing.slice(0, 5), `${differing.length} rows differ`).toEqual([]);
        expect(first.content.equals(second.content)).toBe(true);
        expect(firstRows).toHaveLength(RECORDS + 1);

        // One key's limits across both API processes, shown without a race against the clock: a
        // bulk call of RECORD_BLOCK records on API A, at a record rate of one a second, goes ahead
        // (the key's second was unused) and blocks the key for RECORD_BLOCK seconds in the shared
        // counter. API B then refuses the key's next call, however slow the machine: a counter of
        // B's own would let it through, its second unused.
        const blocking = await call(
          apiA.port,
          'POST',
          `/v5/ei/bulk?api_key=${limitedKey}`,
          JSON.stringify(Array.from({ length: RECORD_BLOCK }, () => ({ email: 'a@example.com' }))),
        );
        expect(blocking.status, blocking.body).toBe(200);
        for (const port of [apiB.port, apiA.port]) {
          const refused = await call(port, 'GET', `/v5/ev?email=a%40example.com&api_key=${limitedKey}`);
          expect(refused.status, refused.body).toBe(429);
          expect(refused.body).toContain('Record rate exceeded: this key may send 1 records a second');
          // Well over the one second a fresh counter of this process's own would name.
          expect(Number(refused.retryAfter)).toBeGreaterThan(RECORD_BLOCK / 2);
        }
        if (s3) {
          // The files went through the store (each process had only its own directory): both
          // lists' uploads and results, and no unfinished upload left behind.
          expect(await s3.keys('scale/')).toEqual(
            [id, again].flatMap((list) => [`scale/lists/${list}/results.zip`, `scale/lists/${list}/upload.csv`]).sort(),
          );
          expect(await s3.uploadsOnDisk()).toEqual([]);
        }
      } finally {
        onA.close();
        onB.close();
      }
    }, 420_000);
  });
}

/** One call on API process `port`: its status, body and Retry-After. */
async function call(
  port: number,
  method: 'GET' | 'POST',
  path: string,
  body?: string,
): Promise<{ status: number; body: string; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        rejectUnauthorized: false,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            retryAfter: res.headers['retry-after'] as string | undefined,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
