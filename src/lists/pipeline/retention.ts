/**
 * Retention: a list's files (upload and results) are deleted once the list is older than the
 * configured number of days; the list itself stays, so its status and reports remain readable
 * and its results answer 404. Runs at start and then hourly.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { ListStore } from '../list-record.js';
import { incomingDir, listDir } from './list-paths.js';

const DAY_MS = 86_400_000;

export async function sweepExpiredLists(deps: { store: Pick<ListStore, 'createdBefore'>; dataDir: string; retentionDays: number; clock: Clock }): Promise<number> {
  const cutoff = new Date(deps.clock.now() - deps.retentionDays * DAY_MS).toISOString();
  let removed = 0;
  for (const list of await deps.store.createdBefore(cutoff)) {
    const dir = listDir(deps.dataDir, list.id);
    if (!(await stat(dir).then(() => true, () => false))) continue;
    await rm(dir, { recursive: true, force: true });
    removed += 1;
  }
  await sweepIncoming(deps.dataDir, deps.clock.now());
  return removed;
}

/**
 * Uploads a killed process left half-written in `incoming/`. Only old ones: in scale-out the
 * directory is shared, and another process may be receiving a file right now.
 */
async function sweepIncoming(dataDir: string, now: number): Promise<void> {
  const dir = incomingDir(dataDir);
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info && now - info.mtimeMs > DAY_MS) await rm(path, { force: true });
  }
}

export function startRetention(deps: Parameters<typeof sweepExpiredLists>[0] & { logger: Logger }): { stop(): void } {
  const sweep = () =>
    void sweepExpiredLists(deps).then(
      (removed) => removed > 0 && deps.logger.info({ removed }, 'deleted the files of expired lists'),
      (error: unknown) => deps.logger.error({ err: error }, 'list retention sweep failed'),
    );
  sweep();
  const timer = setInterval(sweep, 3_600_000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
