/** Opens the configured storage for one CLI command and closes it afterwards. */
import { statSync } from 'node:fs';
import { KeyOptionError } from '../accounts/key-admin.js';
import { loadConfig } from '../core/config.js';
import { DuplicateKeyName } from '../accounts/key-store.js';
import type { Storage } from '../wiring/stores.js';
import { fail } from './output.js';

/** A data file the command is about to read: a clear refusal, before storage opens, for a directory. */
export function requireFile(file: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(file).isDirectory();
  } catch {
    return; // Missing or unreadable: reading it says which, with its path.
  }
  if (isDirectory) fail(`not a file but a directory: ${file}`);
}

export async function withStorage(run: (storage: Storage) => Promise<void>): Promise<void> {
  let storage: Storage | undefined;
  try {
    const config = loadConfig(process.env);
    // Loaded here, not at the top: `mailsure --help` need not load the database drivers.
    const { openStores, blockingRefreshLine } = await import('../wiring/stores.js');
    // Said on stderr (stdout may be parsed) when an upgrade's first command changed people's match keys.
    storage = await openStores({
      config,
      onBlockingRefreshed: (r) => {
        if (r.rewritten > 0) process.stderr.write(`mailsure: ${blockingRefreshLine(r)}\n`);
      },
    });
    await run(storage);
  } catch (error) {
    if (error instanceof KeyOptionError || error instanceof DuplicateKeyName) fail(error.message);
    const { code, path } = error as NodeJS.ErrnoException;
    if (code === 'ENOENT') fail(`no such file: ${path}`);
    if (code === 'EACCES' || code === 'EPERM') fail(`not allowed to read: ${path}`);
    throw error;
  } finally {
    await storage?.close();
  }
}
