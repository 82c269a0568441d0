/**
 * The demo (decisions §2, MAILSURE_DEMO): a key with every service, printed with a curl line a
 * newcomer can paste, and 1,000 synthetic people (demo-data.ts). Made only where it cannot land
 * among an operator's data: on the embedded SQLite default starting on an empty data directory,
 * or where MAILSURE_DEMO=1 asks for it. Both are marked as demo, so `mailsure demo remove`
 * deletes exactly them.
 */
import { readdirSync } from 'node:fs';
import { createKey, type CreatedKey } from '../accounts/key-admin.js';
import { DuplicateKeyName } from '../accounts/key-store.js';
import type { Config } from '../core/config.js';
import type { Storage } from '../wiring/stores.js';

const DEMO_KEY_NAME = 'demo';

/**
 * Whether this start makes the demo: MAILSURE_DEMO decides when set; unset, only SQLite on a data
 * directory that held nothing before this start (PostgreSQL is shared: never unless asked).
 */
export function demoWanted(config: Pick<Config, 'demo' | 'databaseUrl'>, emptyDataDir: boolean): boolean {
  if (config.demo !== null) return config.demo;
  return config.databaseUrl === null && emptyDataDir;
}

/** True when `dir` is missing or holds nothing (a new volume's `lost+found` aside); read before storage opens. */
export function isEmptyDataDir(dir: string): boolean {
  try {
    return readdirSync(dir).every((name) => name === 'lost+found');
  } catch (error) {
    // Unreadable: opening storage says why; no demo either way.
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Creates the demo key unless there is a key of that name already (a second start, another process). */
export async function ensureDemoKey(storage: Storage, wanted: boolean): Promise<CreatedKey | null> {
  if (!wanted || (await storage.keys.findByName(DEMO_KEY_NAME))) return null;
  try {
    return await createKey(storage.keys, DEMO_KEY_NAME, { services: 'all' }, { demo: true });
  } catch (error) {
    // Another process sharing the database made it first.
    if (error instanceof DuplicateKeyName) return null;
    throw error;
  }
}

export function demoBanner(created: CreatedKey, baseUrl: string, demoEmail?: string): string {
  return [
    '',
    `Demo key created (shown once; MAILSURE_DEMO=0 turns this off): ${created.key}`,
    'Try it:',
    `  curl -k "${baseUrl}/v5/ev?email=john..doe@gmail.com&api_key=${created.key}"`,
    ...(demoEmail
      ? [
          `  curl -k "${baseUrl}/v5/td?email=${encodeURIComponent(demoEmail)}&api_key=${created.key}"`,
          '(1,000 synthetic people were loaded for the demo; `mailsure generate people` makes more.)',
        ]
      : []),
    '`mailsure demo remove` deletes the demo key and the synthetic people, and nothing else.',
    '',
  ].join('\n');
}
