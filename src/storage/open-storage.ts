import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import type { Storage } from './interfaces.js';
import type { Config } from '../core/config.js';
import { kyselyStorage } from './kysely/kysely-storage.js';
import { migrateToLatest } from './migrations/migrate.js';
import { postgresOpenFailure, sqliteOpenFailure } from './open-failure.js';
import { createSecretBox, isSealed, loadSecretKey, type SecretBox } from './secret-box.js';
import { StartupError } from '../core/startup-error.js';
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
  /** MAILSURE_SECRET_KEY; unset, the data directory's `secret.key` (secret-box.ts). */
  secretKey?: string;
  /**
   * Serving processes (API, workers): a stalled database (a held lock, a paused server) fails a
   * query after these instead of hanging it. Migrations run without them.
   */
  deadlines?: { lockMs: number; queryMs: number };
  /** Told the names of the migrations this open applied, in order (empty when none was pending): `mailsure migrate` prints them. */
  onMigrated?: (applied: readonly string[]) => void;
}

export const SQLITE_FILE_NAME = 'mailsure.sqlite';

/** The storage a process's configuration names (engine, data directory, secret key). */
export function storageOptionsOf(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'secretKey'>): StorageOptions {
  return {
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    dataDir: config.dataDir,
    ...(config.secretKey ? { secretKey: config.secretKey } : {}),
  };
}

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
    // Migrations may run long: on a connection of their own, without the serving deadlines.
    let applied: string[];
    if (postgres && opts.deadlines) {
      const { deadlines: _serving, ...plain } = opts;
      const migrator = openDatabase(plain);
      try {
        applied = await migrateToLatest(migrator);
      } finally {
        await migrator.destroy();
      }
    } else applied = await migrateToLatest(db);
    opts.onMigrated?.(applied);
  } catch (error) {
    await db.destroy().catch(() => {});
    throw explain(error);
  }
  let secrets: SecretBox;
  try {
    secrets = createSecretBox(await loadSecretKey(opts.secretKey, opts.dataDir));
    await sealStoredSecrets(db, secrets);
  } catch (error) {
    await db.destroy().catch(() => {});
    throw error instanceof StartupError ? error : (sqliteOpenFailure(error, opts.dataDir) ?? error);
  }
  return kyselyStorage(db, { secrets });
}

/**
 * Seals secrets stored before sealing existed, and checks that the key opens those sealed before
 * (a wrong key would only show when a list's callback could not be signed).
 */
async function sealStoredSecrets(db: Kysely<Database>, secrets: SecretBox): Promise<void> {
  const rows = await db.selectFrom('api_keys').select(['id', 'webhook_secret']).execute();
  for (const row of rows) {
    if (isSealed(row.webhook_secret)) {
      try {
        secrets.open(row.webhook_secret);
      } catch {
        throw new StartupError(
          'the secret key does not open the webhook secrets in the database: set MAILSURE_SECRET_KEY (or restore secret.key in MAILSURE_DATA_DIR) to the key they were sealed with',
        );
      }
      continue;
    }
    await db
      .updateTable('api_keys')
      .set({ webhook_secret: secrets.seal(row.webhook_secret) })
      .where('id', '=', row.id)
      .where('webhook_secret', '=', row.webhook_secret)
      .execute();
  }
}

function openDatabase({ databaseUrl, dataDir, schema, deadlines }: StorageOptions): Kysely<Database> {
  if (databaseUrl === undefined || databaseUrl === '') {
    return openSqlite({ file: join(dataDir, SQLITE_FILE_NAME) });
  }
  if (/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    return openPostgres({ url: databaseUrl, ...(schema !== undefined ? { schema } : {}), ...(deadlines ? { deadlines } : {}) });
  }
  // Falling back to SQLite here would quietly split the data of a misconfigured cluster.
  throw new Error('the database URL must start with postgres:// or postgresql:// (unset it to use SQLite)');
}
