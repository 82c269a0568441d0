/**
 * The server and the `mailsure keys` CLI open one SQLite file from separate processes, possibly
 * both on a fresh data directory: migrations must run once and writes must wait, not fail.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { openStorage } from '../../src/storage/open-storage.js';

const run = promisify(execFile);
const child = fileURLToPath(new URL('./sqlite-child.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'mailsure-processes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('lets several processes migrate and write one fresh SQLite file at once', async () => {
  const dataDir = join(root, 'data');
  const names = ['p1', 'p2', 'p3', 'p4'];
  const startAt = String(Date.now() + 3_000); // after every child has loaded
  await Promise.all(names.map((name) => run(process.execPath, ['--import', 'tsx', child, dataDir, name, startAt])));
  const storage = await openStorage({ dataDir });
  try {
    expect((await storage.keys.list()).map((k) => k.name).sort()).toEqual(names);
    // Every child added 25 calls to the first key created, whichever process created it.
    expect((await storage.keys.list())[0]?.callsUsed).toBe(100);
  } finally {
    await storage.close();
  }
});
