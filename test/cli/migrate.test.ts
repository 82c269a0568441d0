/** `mailsure migrate` says what it did: the migrations it applied by name, or that none was pending. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/storage/migrations/index.js';
import { migrateToLatest } from '../../src/storage/migrations/migrate.js';
import { SQLITE_FILE_NAME } from '../../src/storage/open-storage.js';
import { openSqlite } from '../../src/storage/sqlite/open-sqlite.js';
import { CLI_TEST_TIMEOUT, runCli } from '../helpers/cli.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'mailsure-migrate-'));
  dirs.push(dir);
  return dir;
};
const names = Object.keys(MIGRATIONS);

describe('mailsure migrate', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('names every migration it applies to a new database, then says it is up to date', () => {
    const env = { MAILSURE_DATA_DIR: tempDir() };
    const first = runCli(['migrate'], env);
    expect(first).toMatchObject({ status: 0, stderr: '' });
    expect(first.stdout).toBe(`applied ${names.length} migrations (sqlite): ${names.join(', ')}\n`);
    const again = runCli(['migrate'], env);
    expect(again).toMatchObject({ status: 0, stdout: 'database is up to date (sqlite)\n', stderr: '' });
  });

  it('names only the pending one on a database one migration behind', async () => {
    const dataDir = tempDir();
    const db = openSqlite({ file: join(dataDir, SQLITE_FILE_NAME) });
    await migrateToLatest(db, Object.fromEntries(Object.entries(MIGRATIONS).slice(0, -1)));
    await db.destroy();
    const out = runCli(['migrate'], { MAILSURE_DATA_DIR: dataDir });
    expect(out).toMatchObject({ status: 0, stdout: `applied 1 migration (sqlite): ${names.at(-1)}\n`, stderr: '' });
  });
});
