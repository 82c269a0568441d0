/**
 * Retention: once a list is older than the configured number of days, its files (upload and
 * results) are deleted and the processed records its chunks hold in the database are forgotten;
 * the list itself stays, with its status, reports and counts, and its results answer 404. A list
 * still running is left alone until it finishes. Runs at start and then hourly.
 */
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { ListFiles } from '../list-files.js';
import type { ListStore } from '../list-record.js';
import { isFinished } from '../states.js';

const DAY_MS = 86_400_000;

export async function sweepExpiredLists(deps: {
  store: Pick<ListStore, 'createdBefore' | 'forgetRecords'>;
  files: ListFiles;
  retentionDays: number;
  clock: Clock;
}): Promise<number> {
  const cutoff = new Date(deps.clock.now() - deps.retentionDays * DAY_MS).toISOString();
  let removed = 0;
  for (const list of await deps.store.createdBefore(cutoff)) {
    if (!isFinished(list.status)) continue;
    const filesGone = await deps.files.remove(list.id);
    const rowsGone = (await deps.store.forgetRecords(list.id)) > 0;
    if (filesGone || rowsGone) removed += 1;
  }
  // Uploads a killed process left half-received, once they are a day old.
  await deps.files.sweepIncoming(deps.clock.now() - DAY_MS);
  return removed;
}

export function startRetention(deps: Parameters<typeof sweepExpiredLists>[0] & { logger: Logger }): { stop(): void } {
  const sweep = () =>
    void sweepExpiredLists(deps).then(
      (removed) => removed > 0 && deps.logger.info({ removed }, 'deleted the files and records of expired lists'),
      (error: unknown) => deps.logger.error({ err: error }, 'list retention sweep failed'),
    );
  sweep();
  const timer = setInterval(sweep, 3_600_000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
