import { Migrator, sql, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import { engineOf } from '../database.js';
import { MIGRATIONS } from './index.js';

/**
 * Brings the schema up to the newest migration; harmless when it already is. Pending migrations
 * run in one transaction on both engines, so a failure applies none of them. `migrations` is
 * for tests; the application always runs the registered set. Answers the names of the
 * migrations this call applied, in order (none when the schema was already up to date).
 */
export async function migrateToLatest<DB>(db: Kysely<DB>, migrations: Readonly<Record<string, Migration>> = MIGRATIONS): Promise<string[]> {
  const postgres = engineOf(db) === 'postgres';
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...migrations }) },
    // Kysely looks for its bookkeeping tables in every schema unless told which one; with a
    // per-schema search_path it would find another schema's and skip creating ours.
    ...(postgres ? { migrationTableSchema: await currentSchema(db) } : {}),
  });
  // PostgreSQL: the Migrator takes an advisory lock and a transaction itself. SQLite: it does
  // neither, so two processes starting on a fresh file would both run 0001 — take the write lock.
  const outcome = postgres
    ? await withoutCatalogRace(() => migrator.migrateToLatest())
    : await inSqliteWriteTransaction(db, () => migrator.migrateToLatest());
  if (outcome.error !== undefined) throw migrationError(outcome);
  return (outcome.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Kysely's Migrator looks for its tables with a catalog-wide introspection query, which fails with
 * "schema … does not exist" when another schema of the database is dropped while it runs (several
 * deployments or test runs in one database). Nothing was applied then: it is asked again, after a
 * pause that grows, up to CATALOG_RACE_ATTEMPTS times (a run that drops many schemas, such as the
 * migration tests', can win the race three times in a row).
 */
async function withoutCatalogRace(run: () => Promise<MigrationResultSet>): Promise<MigrationResultSet> {
  for (let attempt = 1; ; attempt++) {
    const outcome = await run();
    const code = (outcome.error as { code?: string } | undefined)?.code;
    const applied = (outcome.results ?? []).some((r) => r.status !== 'NotExecuted');
    if (code !== INVALID_SCHEMA_NAME || applied || attempt >= CATALOG_RACE_ATTEMPTS) return outcome;
    await new Promise((resolve) => setTimeout(resolve, 10 * attempt));
  }
}

const CATALOG_RACE_ATTEMPTS = 10;

/** PostgreSQL's invalid_schema_name. */
const INVALID_SCHEMA_NAME = '3F000';

async function currentSchema<DB>(db: Kysely<DB>): Promise<string> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('PostgreSQL has no current schema: check search_path');
  return schema;
}

/**
 * Runs `run` inside BEGIN IMMEDIATE. Kysely's SQLite driver has a single connection and the
 * Migrator's queries go through it one by one, so they all land inside this transaction.
 * SQLite's DDL is transactional: a failed migration leaves no half-made tables behind.
 */
async function inSqliteWriteTransaction<DB>(db: Kysely<DB>, run: () => Promise<MigrationResultSet>): Promise<MigrationResultSet> {
  await sql`begin immediate`.execute(db);
  let outcome: MigrationResultSet;
  try {
    outcome = await run();
  } catch (error) {
    await sql`rollback`.execute(db);
    throw error;
  }
  await sql.raw(outcome.error === undefined ? 'commit' : 'rollback').execute(db);
  return outcome;
}

function migrationError({ error, results = [] }: MigrationResultSet): Error {
  const failed = results.filter((r) => r.status === 'Error').map((r) => r.migrationName);
  const reason = error instanceof Error ? error.message : String(error);
  const where = failed.length > 0 ? `migration ${failed.join(', ')} failed` : 'migration failed before any ran';
  return new Error(`database ${where}; none of the pending migrations was applied: ${reason}`, {
    cause: error,
  });
}
