/**
 * The demo on PostgreSQL (decisions §2, MAILSURE_DEMO): a shared database never gets the demo key
 * or the synthetic people unless MAILSURE_DEMO=1 asks, and `mailsure demo remove` takes them out
 * again. Runs where MAILSURE_TEST_DATABASE_URL names a server (a database of its own on it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT, runCli, startServe } from '../helpers/cli.js';
import { createTestDatabase, dropTestDatabase } from './pg-database.js';

const serverUrl = process.env.MAILSURE_TEST_DATABASE_URL;
const DB_NAME = 'mailsure_demo_pg';

describe.skipIf(!serverUrl)(
  serverUrl ? 'the demo on PostgreSQL' : 'the demo on PostgreSQL (skipped: MAILSURE_TEST_DATABASE_URL not set)',
  { timeout: CLI_TEST_TIMEOUT },
  () => {
    let env: Record<string, string>;
    const dataDir = mkdtempSync(join(tmpdir(), 'mailsure-demo-pg-'));
    beforeAll(async () => {
      env = {
        MAILSURE_DATABASE_URL: await createTestDatabase(serverUrl!, DB_NAME),
        MAILSURE_DATA_DIR: dataDir,
        MAILSURE_HOST: '127.0.0.1',
        MAILSURE_PORT: '18557',
        MAILSURE_LOG_LEVEL: 'warn',
      };
    });
    afterAll(async () => {
      rmSync(dataDir, { recursive: true, force: true });
      await dropTestDatabase(serverUrl!, DB_NAME);
    });

    it('is not made on a new empty database with an empty data directory', async () => {
      const server = startServe(env, /listening/);
      await server.ready;
      // The demo is decided before `listening` is printed; stop() waits for all the output.
      expect(await server.stop()).toBe(0);
      expect(server.output().stdout).not.toContain('Demo key');
      expect(runCli(['keys', 'list'], env).stdout).toBe('no keys\n');
    });

    it('is made when MAILSURE_DEMO=1 asks, and `demo remove` deletes it', async () => {
      const server = startServe({ ...env, MAILSURE_DEMO: '1' }, /listening/);
      await server.ready;
      expect(await server.stop()).toBe(0);
      expect(server.output().stdout).toContain('(1,000 synthetic people were loaded for the demo;');
      expect(runCli(['keys', 'list'], env).stdout).toMatch(/^demo /m);
      const removed = runCli(['demo', 'remove'], env);
      expect(removed).toMatchObject({ status: 0, stderr: '' });
      expect(removed.stdout).toMatch(/^removed the demo: 1 key, 1000 people, \d+ activity events\n$/);
      expect(runCli(['keys', 'list'], env).stdout).toBe('no keys\n');
    });
  },
);
