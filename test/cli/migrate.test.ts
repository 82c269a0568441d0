/** `mailsure migrate` says what it did: the migrations it applied by name, or that none was pending. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/storage/migrations/index.js';
import { migrateToLatest } from '../../src/storage/migrations/migrate.js';
import { SQLITE_FILE_NAME } from '../../src/storage/open-storage.js';
import { openSqlite } from '../../src/storage/sqlite/open-sqlite.js';
import { BLOCKING_VERSION } from '../../src/identity/match/refresh-blocking.js';
import { openStorage } from '../../src/storage/open-storage.js';
import { newPerson, peopleBatch } from '../../src/storage/contract/people-fixtures.js';
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

  /** A data directory as the release before 0017 left it: its street parser read no house number in a rural-delivery box. */
  async function olderRelease(): Promise<string> {
    const dataDir = tempDir();
    const storage = await openStorage({ dataDir });
    await storage.people.upsert(peopleBatch([newPerson('rural', { address: 'RD 12 PO 5' }), newPerson('town', { address: '40 Elm St' })]));
    await storage.close();
    const db = openSqlite({ file: join(dataDir, SQLITE_FILE_NAME) });
    const raw = db as unknown as Kysely<{
      people: { person_key: string; house_number: string };
      derived_versions: { name: string; version: number };
    }>;
    await raw.updateTable('people').set({ house_number: '' }).where('person_key', '=', 'rural').execute();
    await raw.updateTable('derived_versions').set({ version: 1 }).execute();
    await db.destroy();
    return dataDir;
  }
  const refreshed = `people's blocking columns re-derived by today's matcher (version 1 → ${BLOCKING_VERSION}): 1 of 2 people changed`;

  it("re-derives the people's blocking columns an older release stored, says how many changed, and only once", async () => {
    const dataDir = await olderRelease();
    const out = runCli(['migrate'], { MAILSURE_DATA_DIR: dataDir });
    expect(out).toMatchObject({ status: 0, stdout: `database is up to date (sqlite)\n${refreshed}\n`, stderr: '' });
    const after = await openStorage({ dataDir });
    try {
      expect(await after.people.blockingVersion()).toBe(BLOCKING_VERSION);
      const found = await after.people.findCandidates([{ kind: 'zip-house', zip5: '62701', houseNumber: '5' }]);
      expect(found.map((p) => p.personKey)).toEqual(['rural']);
    } finally {
      await after.close();
    }
    expect(runCli(['migrate'], { MAILSURE_DATA_DIR: dataDir })).toMatchObject({ status: 0, stdout: 'database is up to date (sqlite)\n' });
  });

  it('another command that re-derives them says so on stderr, its own output unchanged', async () => {
    const dataDir = await olderRelease();
    expect(runCli(['keys', 'list'], { MAILSURE_DATA_DIR: dataDir })).toMatchObject({
      status: 0,
      stdout: 'no keys\n',
      stderr: `mailsure: ${refreshed}\n`,
    });
    expect(runCli(['keys', 'list'], { MAILSURE_DATA_DIR: dataDir })).toMatchObject({ status: 0, stdout: 'no keys\n', stderr: '' });
  });
});
