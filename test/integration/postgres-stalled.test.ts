/**
 * Issue 19 (7): a stalled PostgreSQL (here a table lock another session holds) must not hang API
 * calls: a serving process's queries give up waiting on a lock, and the call answers 503 "try
 * again" with Retry-After; /readyz answers within its deadline; all is well once the lock goes.
 * Runs where MAILSURE_TEST_DATABASE_URL is set (CI).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/storage/postgres/open-postgres.js';
import { openStorage } from '../../src/storage/open-storage.js';
import type { Storage } from '../../src/storage/interfaces.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

const url = process.env.MAILSURE_TEST_DATABASE_URL;

describe.skipIf(!url)('a stalled PostgreSQL', () => {
  const schema = `mailsure_stalled_${randomBytes(5).toString('hex')}`;
  let storage: Storage;
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    storage = await openStorage({
      databaseUrl: url!,
      dataDir: '/nonexistent',
      schema,
      secretKey: randomBytes(32).toString('base64'),
      deadlines: { lockMs: 300, queryMs: 10_000 },
    });
    t = await makeTestApp({ storage });
    key = (await t.key('k')).key;
  });
  afterAll(async () => {
    await t?.close();
    await storage?.close();
    const admin = openPostgres({ url: url! });
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin);
    await admin.destroy();
  });

  it('answers 503 with Retry-After while a lock is held, instead of hanging, and 200 after', async () => {
    const td = () => t.app.inject({ url: `/v5/td?email=ann@example.com&api_key=${key}` });
    expect((await td()).statusCode).toBe(200);

    const holder = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('lock table people in access exclusive mode');
      const stalled = await td();
      expect(stalled.statusCode).toBe(503);
      expect(stalled.json()).toEqual({ error_code: 503, error_msg: 'The database did not answer in time; try again' });
      expect(stalled.headers['retry-after']).toBe('5');
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    expect((await td()).statusCode).toBe(200);
  });
});
