/**
 * Why opening storage failed, as the one line an operator acts on (core/startup-error.ts), or
 * undefined when it is not the set-up's fault (a bug keeps its stack trace).
 */
import { reasonOf, StartupError } from '../core/startup-error.js';

/** What a data directory this user cannot write, or a file there it cannot open, looks like. */
const SQLITE_ACCESS =
  /^(SQLITE_CANTOPEN|SQLITE_READONLY|SQLITE_PERM|SQLITE_IOERR|SQLITE_AUTH)|^(EACCES|EPERM|EROFS|ENOTDIR|EEXIST|ENOSPC)$/;
/** SQLSTATE classes of a server that cannot be reached or will not let us in (08, 28, 3D, 57P). */
const PG_UNREACHABLE = /^(08|28|3D|57P0)/;

export function sqliteOpenFailure(error: unknown, dataDir: string): StartupError | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !SQLITE_ACCESS.test(code)) return undefined;
  return new StartupError(
    `cannot use the data directory ${dataDir} (${reasonOf(error)}); set MAILSURE_DATA_DIR to a directory this user can write`,
  );
}

export function postgresOpenFailure(error: unknown, databaseUrl: string): StartupError | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  const network = typeof code === 'string' && /^E[A-Z]+$/.test(code);
  const refused = typeof code === 'string' && PG_UNREACHABLE.test(code);
  const dropped = error instanceof Error && /connection|timeout|SSL|certificate/i.test(error.message);
  if (!network && !refused && !dropped) return undefined;
  return new StartupError(`cannot connect to PostgreSQL at ${where(databaseUrl)} (${reasonOf(error)}); check MAILSURE_DATABASE_URL`);
}

/** host:port/database of the URL, never its password. */
function where(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname || 'localhost'}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return 'the configured URL';
  }
}
