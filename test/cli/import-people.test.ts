/**
 * `mailsure import people|activity` as an operator runs it, on a real SQLite file, then /v5/td
 * from an app on that file: a person is never dropped for one impossible address (decisions §2).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../../src/storage/interfaces.js';
import { openStorage } from '../../src/storage/open-storage.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { CLI_TEST_TIMEOUT, runCli } from '../helpers/cli.js';

let dataDir: string;
let env: Record<string, string>;
let key: string;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'mailsure-people-cli-'));
  env = { MAILSURE_DATA_DIR: dataDir };
  const out = runCli(['keys', 'create', '--name', 'acme'], env);
  expect(out.status).toBe(0);
  key = /api key: +(\S+)/.exec(out.stdout)![1]!;
}, CLI_TEST_TIMEOUT);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dataDir, name);
  writeFileSync(path, text);
  return path;
}

/** Runs `body` against an app over the CLI's SQLite file, closed before the next CLI run. */
async function withApp<T>(body: (t: TestApp) => Promise<T>): Promise<T> {
  const storage: Storage = await openStorage({ dataDir });
  const t = await makeTestApp({ storage, dataDir });
  try {
    return await body(t);
  } finally {
    await t.close();
    await storage.close();
  }
}

describe('mailsure import people and activity', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('loads a person whose one address breaks its provider’s username rule, skipping only that address', async () => {
    const people = file(
      'people.csv',
      [
        'email,emails,first_name,last_name,address,city,state,zip,age',
        'tamara_ortiz@gmail.com,tamara.ortiz@example.com,Tamara,Ortiz,12 Main St,Springfield,IL,62701-1234,35-44',
        'ann_lee@gmail.com,,Ann,Lee,5 Oak Ave,Reno,NV,89501,25-34',
        'bo_x@gmail.com,,,,,,,,45-54',
        'ok@example.com,,,,,,,,55-64',
      ].join('\n') + '\n',
    );
    const out = runCli(['import', 'people', people], env);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    expect(out.stdout.split('\n')).toEqual([
      'people from CSV: 3 loaded (3 new, 0 updated), 1 rejected, 2 warnings (addresses skipped)',
      '  line 4: email: "bo_x@gmail.com" is not a valid address (not a possible Gmail username (6 to 30 letters or digits, dots allowed))',
      '  line 2: warning: email: "tamara_ortiz@gmail.com" is not a valid address (not a possible Gmail username (6 to 30 letters or digits, dots allowed)); skipped, the rest of the row loaded',
      '  line 3: warning: email: "ann_lee@gmail.com" is not a valid address (not a possible Gmail username (6 to 30 letters or digits, dots allowed)); skipped, the rest of the row loaded',
      '',
    ]);
    await withApp(async (t) => {
      const td = async (query: string) => (await t.app.inject({ url: `/v5/td?${query}&fields=age,postal_address&api_key=${key}` })).json();
      const tamara = {
        first_name: 'Tamara',
        last_name: 'Ortiz',
        address: '12 Main St',
        city: 'Springfield',
        state: 'IL',
        zip: '62701-1234',
      };
      expect(await td('email=tamara.ortiz%40example.com')).toEqual({ age: '35-44', postal_address: tamara });
      expect(await td('first=Tamara&last=Ortiz&zip4=62701-1234')).toEqual({ age: '35-44' });
      expect(await td('first=Ann&last=Lee&street=5%20Oak%20Ave&zip=89501')).toEqual({ age: '25-34' });
      expect(await td('email=ok%40example.com')).toEqual({ age: '55-64' });
      expect(await t.storage.people.findByEmail('tamara_ortiz@gmail.com')).toBeUndefined();
    });
  });

  it('rejects only the event whose address is impossible', async () => {
    const activity = file(
      'activity.csv',
      [
        'email,source,seen_at,event',
        'tamara.ortiz@example.com,news,2025-01-02,open',
        'tamara_ortiz@gmail.com,news,2025-01-03,open',
        'tamara.ortiz@example.com,shop,2025-02-01,seen',
      ].join('\n') + '\n',
    );
    const out = runCli(['import', 'activity', activity], env);
    expect(out.status).toBe(0);
    expect(out.stdout.split('\n')).toEqual([
      'activity from CSV: 2 loaded (2 new), 1 rejected',
      '  line 3: email: "tamara_ortiz@gmail.com" is not a valid address (not a possible Gmail username (6 to 30 letters or digits, dots allowed))',
      '',
    ]);
    await withApp(async (t) => {
      const res = await t.app.inject({ url: `/v5/td?email=tamara.ortiz%40example.com&fields=date_first_seen,popularity&api_key=${key}` });
      expect(res.json()).toMatchObject({ eam: { date_first_seen: '2025-01-02' } });
    });
  });
});
