/**
 * The demo (decisions §2, MAILSURE_DEMO) on the embedded SQLite default: made only on an empty
 * data directory, and `mailsure demo remove` deletes exactly the rows marked as demo. PostgreSQL:
 * test/integration/demo-postgres.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/accounts/key-admin.js';
import { demoDataset } from '../../src/generate/demo-dataset.js';
import { loadDemoData } from '../../src/cli/demo-data.js';
import { ensureDemoKey } from '../../src/cli/demo-key.js';
import { openStorage, SQLITE_FILE_NAME } from '../../src/storage/open-storage.js';
import { openSqlite } from '../../src/storage/sqlite/open-sqlite.js';
import { makeTestApp } from '../helpers/app.js';
import { CLI_TEST_TIMEOUT, runCli, startServe } from '../helpers/cli.js';
import { kate, peopleBatch } from '../helpers/people.js';
import { prepareActivity } from '../../src/people/activity-rules.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'mailsure-demo-'));
  dirs.push(dir);
  return dir;
};

describe('the demo on SQLite', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('is not made when the data directory already holds a database, even one without keys', async () => {
    const dataDir = tempDir();
    expect(runCli(['migrate'], { MAILSURE_DATA_DIR: dataDir }).status).toBe(0);
    const server = startServe({ MAILSURE_DATA_DIR: dataDir, MAILSURE_PORT: '18556', MAILSURE_HOST: '127.0.0.1' }, /listening/);
    await server.ready;
    // The demo is decided before `listening` is printed; stop() waits for all the output.
    expect(await server.stop()).toBe(0);
    expect(server.output().stdout).not.toContain('Demo key');
    expect(runCli(['keys', 'list'], { MAILSURE_DATA_DIR: dataDir }).stdout).toBe('no keys\n');
  });

  it('`demo remove` deletes the demo key and people and their activity, and nothing of the operator’s', async () => {
    const dataDir = tempDir();
    const day = '2026-03-02';
    const demo = demoDataset(day);
    const [first, second] = demo.people;
    const secondEvent = demo.events.find((e) => second!.emails.includes(e.email))!;
    let storage = await openStorage({ dataDir });
    const demoKey = (await ensureDemoKey(storage, true))!.key;
    await loadDemoData(storage, day);
    const realKey = (await createKey(storage.keys, 'real', { services: 'all' })).key;
    // The operator's own people: Kate, and an import of `mailsure generate` output whose first
    // person has the demo's second person's id and address; and activity, one event the same as a demo one.
    await storage.people.upsert(peopleBatch([kate, { ...second!, fields: { age: '65-74' } }]));
    await storage.activity.add(
      prepareActivity([{ email: kate.emails[0]!, source: 'crm', seenOn: '2026-02-01', event: 'open' }, secondEvent]),
    );
    await storage.close();

    const removed = runCli(['demo', 'remove'], { MAILSURE_DATA_DIR: dataDir });
    expect(removed.stderr).toBe('');
    // Every demo event (the generator repeats a few; stored once) but the one the operator's import repeated, and so made theirs.
    const demoEvents = new Set(demo.events.map((e) => `${e.email} ${e.source} ${e.seenOn} ${e.event}`)).size;
    expect(removed.stdout).toBe(`removed the demo: 1 key, 999 people, ${demoEvents - 1} activity events\n`);
    expect(removed.status).toBe(0);
    expect(runCli(['demo', 'remove'], { MAILSURE_DATA_DIR: dataDir }).stdout).toBe('no demo data: nothing removed\n');

    const db = openSqlite({ file: join(dataDir, SQLITE_FILE_NAME) });
    const left = await db.selectFrom('activity_events').select(['email', 'source', 'seen_on', 'event']).orderBy('source').execute();
    await db.destroy();
    expect(left).toEqual(
      [
        { email: kate.emails[0], source: 'crm', seen_on: '2026-02-01', event: 'open' },
        { email: secondEvent.email, source: secondEvent.source, seen_on: secondEvent.seenOn, event: secondEvent.event },
      ].sort((a, b) => a.source.localeCompare(b.source)),
    );

    storage = await openStorage({ dataDir });
    const t = await makeTestApp({ storage, dataDir });
    try {
      expect((await storage.keys.list()).map((k) => k.name)).toEqual(['real']);
      const ev = await t.app.inject({ url: `/v5/ev?email=a@example.com&api_key=${demoKey}` });
      expect({ status: ev.statusCode, body: ev.body }).toEqual({ status: 401, body: 'Invalid API key' });
      const td = async (email: string) =>
        (await t.app.inject({ url: `/v5/td?email=${encodeURIComponent(email)}&api_key=${realKey}` })).json() as Record<string, unknown>;
      // A demo address answers as an address never seen: no person, no activity.
      expect(await td(first!.emails[0]!)).toEqual(await td('nobody@example.com'));
      expect(await td(first!.emails[0]!)).toEqual({ eam: { date_first_seen: 'now', longevity: 0, velocity: 0, popularity: 0 } });
      expect(await td(kate.emails[0]!)).toMatchObject({ age: '35-44' });
      expect(await td(second!.emails[0]!)).toMatchObject({ age: '65-74' });
    } finally {
      await t.close();
    }
  });
});
