import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import type { Storage } from './interfaces.js';
import { kyselyStorage } from './kysely/kysely-storage.js';
import { migrateToLatest } from './migrations/migrate.js';
import { postgresOpenFailure, sqliteOpenFailure } from './open-failure.js';
import { openPostgres } from './postgres/open-postgres.js';
import { openSqlite } from './sqlite/open-sqlite.js';

export { openMemoryStorage } from './memory/memory-storage.js';

export interface StorageOptions {
  /** `postgres://` or `postgresql://` selects PostgreSQL; unset or empty, SQLite. */
  databaseUrl?: string;
  /** Where the SQLite file `mailsure.sqlite` lives (created when missing). */
  dataDir: string;
  /** PostgreSQL only: keep the tables in this schema (tests isolate themselves this way). */
  schema?: string;
}

export const SQLITE_FILE_NAME = 'mailsure.sqlite';

/**
 * Opens the configured engine and migrates it to the latest schema. A data directory this user
 * cannot write, or a PostgreSQL server that cannot be reached, is a StartupError naming the
 * setting to change (the first query is where either shows).
 */
export async function openStorage(opts: StorageOptions): Promise<Storage> {
  const postgres = opts.databaseUrl !== undefined && opts.databaseUrl !== '';
  const explain = (error: unknown) =>
    (postgres ? postgresOpenFailure(error, opts.databaseUrl!) : sqliteOpenFailure(error, opts.dataDir)) ?? error;
  let db: Kysely<Database>;
  try {
    db = openDatabase(opts);
  } catch (error) {
    throw explain(error);
  }
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy().catch(() => {});
    throw explain(error);
  }
  return kyselyStorage(db);
}

function openDatabase({ databaseUrl, dataDir, schema }: StorageOptions): Kysely<Database> {
  if (databaseUrl === undefined || databaseUrl === '') {
    return openSqlite({ file: join(dataDir, SQLITE_FILE_NAME) });
  }
  if (/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    return openPostgres({ url: databaseUrl, ...(schema !== undefined ? { schema } : {}) });
  }
  // Falling back to SQLite here would quietly split the data of a misconfigured cluster.
  throw new Error('the database URL must start with postgres:// or postgresql:// (unset it to use SQLite)');
}
