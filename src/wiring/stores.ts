/**
 * The stores a process opens: the configured database engine and where lists' files live. The
 * container and the commands of cli/ reach storage/ through here only, and use what they get
 * through its interfaces (`Storage`, the domains' store interfaces, `ListFiles`).
 */
import type { Config } from '../core/config.js';
import { BLOCKING_VERSION } from '../identity/match/blocking-version.js';
import type { BlockingRefresh } from '../identity/match/refresh-blocking.js';
import type { Logger } from '../core/logger.js';
import type { ListFiles } from '../lists/list-files.js';
import type { Storage } from '../storage/interfaces.js';
import { openStorage, storageOptionsOf } from '../storage/open-storage.js';

export type { Storage } from '../storage/interfaces.js';

/**
 * A serving process's database waits: a query blocked on a lock fails after 5 s, one with no
 * answer at all after 30 s (a list's results step reads in batches well within that).
 */
export const DATABASE_DEADLINES = { lockMs: 5_000, queryMs: 30_000 };

export interface OpenStoresOptions {
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'secretKey'>;
  /** A serving process (API, worker): a stalled database fails a query after DATABASE_DEADLINES instead of hanging it. */
  serving?: boolean;
  /** Told the names of the migrations this open applied (`mailsure migrate` prints them). */
  onMigrated?: (applied: readonly string[]) => void;
  /** Told when people's blocking columns had been derived by older code and have been re-derived now. */
  onBlockingRefreshed?: (refresh: BlockingRefresh) => void;
}

/**
 * The configured database, migrated to the latest schema (storage/open-storage.ts), its derived
 * columns re-derived where older code derived them (identity/match/refresh-blocking.ts).
 */
export async function openStores({ config, serving = false, onMigrated, onBlockingRefreshed }: OpenStoresOptions): Promise<Storage> {
  const storage = await openStorage({
    ...storageOptionsOf(config),
    ...(serving ? { deadlines: DATABASE_DEADLINES } : {}),
    ...(onMigrated ? { onMigrated } : {}),
  });
  try {
    if ((await storage.people.blockingVersion()) < BLOCKING_VERSION) {
      // Loaded only then: the street parser and the name codes take ~40 ms to import, which every
      // CLI command would pay on every run for a re-derivation that happens once per upgrade.
      const { refreshBlockingColumns } = await import('../identity/match/refresh-blocking.js');
      const refresh = await refreshBlockingColumns(storage.people);
      // A new database has nobody to re-derive: nothing worth telling.
      if (refresh && refresh.scanned > 0) onBlockingRefreshed?.(refresh);
    }
  } catch (error) {
    await storage.close();
    throw error;
  }
  return storage;
}

/** What `mailsure migrate` prints, and a serving process logs, after re-deriving the blocking columns. */
export function blockingRefreshLine(r: BlockingRefresh): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return `people's blocking columns re-derived by today's matcher (version ${r.from} → ${r.to}): ${n(r.rewritten)} of ${n(r.scanned)} people changed`;
}

export interface OpenListFilesOptions {
  config: Pick<Config, 'dataDir' | 'listStore'>;
  /** A process that runs lists keeps what it received as its working copy; an API process does not. */
  keepReceivedUploads: boolean;
  logger?: Logger;
  /** Deadlines of every object-store call (default STORE_DEADLINES). */
  deadlines?: { connectionTimeout: number; socketTimeout: number };
}

/** Lists' files as opened: `check()` before use, `ping()` for /readyz (object store only), `close()` at the end. */
export interface OpenedListFiles {
  files: ListFiles;
  check(): Promise<void>;
  ping?(): Promise<void>;
  close(): void;
}

/**
 * Where lists' uploads and results live: the data directory (one machine, or a mount every
 * process shares), or an S3-compatible object store (MAILSURE_LIST_STORE), every process then
 * keeping only working copies in its own data directory.
 */
export async function openListFiles({ config, keepReceivedUploads, logger, deadlines }: OpenListFilesOptions): Promise<OpenedListFiles> {
  if (!config.listStore) {
    const { createDirectoryListFiles } = await import('../lists/pipeline/directory-list-files.js');
    return { files: createDirectoryListFiles(config.dataDir), check: async () => undefined, close: () => undefined };
  }
  // Loaded only when configured: the AWS SDK takes a while to import, and most processes never need it.
  const { openS3ListFiles } = await import('../storage/s3/open-s3-list-files.js');
  return openS3ListFiles(config.listStore, {
    dataDir: config.dataDir,
    keepReceivedUploads,
    ...(logger ? { logger } : {}),
    ...(deadlines ? { deadlines } : {}),
  });
}
