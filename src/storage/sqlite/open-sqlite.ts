import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../database.js';

export interface SqliteOptions {
  /** Database file, or `:memory:`. */
  file: string;
  /** How long a writer waits for another process's lock before SQLITE_BUSY. */
  busyTimeoutMs?: number;
}

export function openSqlite(opts: SqliteOptions): Kysely<Database> {
  const inMemory = opts.file === ':memory:' || opts.file === '';
  // The file holds personal data: owner-only, and so are the -wal and -shm files, which SQLite
  // creates with the database file's mode. Created here first, since SQLite would use 0644.
  if (!inMemory) {
    mkdirSync(dirname(opts.file), { recursive: true, mode: 0o700 });
    closeSync(openSync(opts.file, 'a', 0o600));
  }
  const sqlite = new BetterSqlite3(opts.file);
  // Set first: the server and the `mailsure keys` CLI share the file, and even switching to WAL
  // below needs a lock another process may hold for a moment.
  const busyTimeoutMs = Math.max(0, Math.trunc(opts.busyTimeoutMs ?? 5_000));
  sqlite.pragma(`busy_timeout = ${busyTimeoutMs}`);
  // WAL lets readers proceed while one process writes; NORMAL is durable across crashes of the
  // process in WAL mode (only an OS crash can lose the last commits), at a fraction of FULL's fsyncs.
  if (!inMemory) enableWal(sqlite, busyTimeoutMs);
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  const cached = withStatementCache(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
  handles.set(db, cached);
  return db;
}

const handles = new WeakMap<object, BetterSqlite3.Database>();

/** The better-sqlite3 handle under a Kysely instance this module opened (raw-read.ts uses it). */
export function sqliteHandleOf(db: object): BetterSqlite3.Database | undefined {
  return handles.get(db);
}

const MAX_CACHED_STATEMENTS = 500;

/**
 * kysely prepares every query afresh; better-sqlite3 statements are reusable, and preparing costs
 * more than running a point lookup. Statements are cached by SQL text (kysely's SQL for a query
 * shape is stable; values are parameters). A statement still iterating (a streamed query) is
 * busy and cannot be re-run, so a fresh one is prepared then.
 */
function withStatementCache(sqlite: BetterSqlite3.Database): BetterSqlite3.Database {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const prepare = (source: string) => {
    const cached = cache.get(source);
    if (cached && !cached.busy) return cached;
    const statement = sqlite.prepare(source);
    if (!cached) {
      if (cache.size >= MAX_CACHED_STATEMENTS) cache.delete(cache.keys().next().value!);
      cache.set(source, statement);
    }
    return statement;
  };
  return new Proxy(sqlite, {
    get(target, property, receiver) {
      if (property === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Switching a fresh file to WAL needs an exclusive lock, and SQLite answers SQLITE_BUSY at once
 * there instead of calling the busy handler; processes starting together on a new data directory
 * hit that. Retried here for as long as busy_timeout would have waited. WAL is then recorded in
 * the file, so later opens don't contend.
 */
function enableWal(sqlite: BetterSqlite3.Database, timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      sqlite.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      // Opening is synchronous (better-sqlite3 is); a short blocking sleep at start-up only.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10 + Math.random() * 20);
    }
  }
}
