/** Opens the configured storage for one CLI command and closes it afterwards. */
import { KeyOptionError } from '../accounts/key-admin.js';
import { loadConfig } from '../core/config.js';
import { DuplicateKeyName, type Storage } from '../storage/interfaces.js';
import { openStorage } from '../storage/open-storage.js';
import { fail } from './output.js';

export async function withStorage(run: (storage: Storage) => Promise<void>): Promise<void> {
  let storage: Storage | undefined;
  try {
    const config = loadConfig(process.env);
    storage = await openStorage({ databaseUrl: config.databaseUrl ?? undefined, dataDir: config.dataDir });
    await run(storage);
  } catch (error) {
    if (error instanceof KeyOptionError || error instanceof DuplicateKeyName) fail(error.message);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') fail(`no such file: ${(error as NodeJS.ErrnoException).path}`);
    throw error;
  } finally {
    await storage?.close();
  }
}
