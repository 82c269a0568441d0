/**
 * `mailsure demo remove`: deletes the rows marked as demo (the demo key with its usage, client
 * lists and lists; the synthetic people with their addresses and activity), then the files of
 * those lists. Keys and people of the operator's are never touched, whatever their names.
 */
import { loadConfig } from '../core/config.js';
import type { Storage } from '../wiring/stores.js';
import { print } from './output.js';

export async function removeDemo(storage: Storage): Promise<void> {
  const removed = await storage.demo.remove();
  if (removed.listIds.length > 0) await removeListFiles(removed.listIds);
  if (removed.keys + removed.people + removed.activityEvents === 0) return print('no demo data: nothing removed');
  const lists = removed.listIds.length > 0 ? ` (and its ${plural(removed.listIds.length, 'list')})` : '';
  print(
    `removed the demo: ${plural(removed.keys, 'key')}${lists}, ${plural(removed.people, 'person', 'people')}, ${plural(removed.activityEvents, 'activity event')}`,
  );
}

/** The rows are gone already; a file left behind is only disk space, so a failure is said, not fatal. */
async function removeListFiles(listIds: number[]): Promise<void> {
  const config = loadConfig(process.env);
  const { openListFiles } = await import('../wiring/stores.js');
  const { files, close } = await openListFiles({ config, keepReceivedUploads: false });
  try {
    for (const id of listIds) {
      await files.remove(id).catch((error: unknown) => {
        process.stderr.write(
          `mailsure: could not delete the files of demo list ${id}: ${error instanceof Error ? error.message : String(error)}\n`,
        );
      });
    }
  } finally {
    close();
  }
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
