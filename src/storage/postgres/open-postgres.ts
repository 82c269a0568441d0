import { CompiledQuery, Kysely, PostgresDialect, type DatabaseConnection } from 'kysely';
import pg from 'pg';
import type { Database } from '../database.js';

export interface PostgresOptions {
  url: string;
  /**
   * Schema to keep every table in (created when missing); tests use a throwaway one. Lower-case
   * letters, digits and `_` only, since it is spliced into the connection's `search_path`.
   */
  schema?: string;
  /** Pool size; pg's default is 10. */
  maxConnections?: number;
  /**
   * Serving processes only (migrations and imports run long): how long a query may wait for a
   * lock, and for its answer at all, before it fails as "the database did not answer in time".
   */
  deadlines?: { lockMs: number; queryMs: number };
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const INT8_OID = 20;
// 42P06 duplicate_schema; 23505 when two sessions race on the catalog's unique index.
const SCHEMA_EXISTS_CODES = new Set(['42P06', '23505']);

export function openPostgres(opts: PostgresOptions): Kysely<Database> {
  const { schema } = opts;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`invalid PostgreSQL schema name "${schema}" (use [a-z_][a-z0-9_]*)`);
  }
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.maxConnections ?? 10,
    types: int8AsNumber(),
    // Only the schema: tables must never resolve to a same-named table in `public`.
    ...(serverOptions(opts) ? { options: serverOptions(opts) } : {}),
    ...(opts.deadlines ? { query_timeout: opts.deadlines.queryMs, connectionTimeoutMillis: opts.deadlines.queryMs } : {}),
  });
  // An idle client whose server connection drops emits 'error' on the pool; unhandled, that
  // would kill the process. The next query gets a fresh connection and reports its own error.
  pool.on('error', () => {});
  let schemaReady: Promise<void> | undefined;
  const ensureSchema = (connection: DatabaseConnection): Promise<void> =>
    (schemaReady ??= createSchema(connection, schema!).catch((error: unknown) => {
      schemaReady = undefined;
      throw error;
    }));
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool, ...(schema ? { onCreateConnection: ensureSchema } : {}) }),
  });
}

function serverOptions(opts: PostgresOptions): string | undefined {
  const parts = [
    ...(opts.schema ? [`-c search_path=${opts.schema}`] : []),
    ...(opts.deadlines ? [`-c lock_timeout=${Math.round(opts.deadlines.lockMs)}`] : []),
  ];
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** A query that failed for time: waiting on a lock, or no answer at all. */
export function isDatabaseTimeout(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '55P03' || code === '57014' || message === 'Query read timeout' || message === 'timeout exceeded when trying to connect';
}

async function createSchema(connection: DatabaseConnection, schema: string): Promise<void> {
  try {
    await connection.executeQuery(CompiledQuery.raw(`create schema if not exists "${schema}"`));
  } catch (error) {
    if (!SCHEMA_EXISTS_CODES.has((error as { code?: string }).code ?? '')) throw error;
  }
}

/**
 * count(*) and BIGINT columns come back from pg as strings by default. Counters here stay far
 * below 2^53, so numbers are what callers want; a value past that stays exact as a BigInt rather
 * than silently rounding. Per pool, so other pg users in the process keep the default.
 */
function int8AsNumber(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  types.setTypeParser(INT8_OID, (text: string) => {
    const value = Number(text);
    return Number.isSafeInteger(value) ? value : BigInt(text);
  });
  return types;
}
