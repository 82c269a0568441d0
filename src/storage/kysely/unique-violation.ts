/**
 * Tells which unique constraint a failed write hit. SQLite reports it only in the message
 * ("UNIQUE constraint failed: api_keys.name"); PostgreSQL by SQLSTATE and constraint name.
 */
export interface UniqueTarget {
  /** `table.column` as SQLite names it. */
  sqliteColumn: string;
  /** The constraint's name, as the migration declares it. */
  pgConstraint: string;
}

export function violatesUnique(error: unknown, target: UniqueTarget): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint, message } = error as { code?: unknown; constraint?: unknown; message?: unknown };
  if (code === 'SQLITE_CONSTRAINT_UNIQUE') {
    return typeof message === 'string' && new RegExp(`\\b${escape(target.sqliteColumn)}\\b`).test(message);
  }
  return code === '23505' && constraint === target.pgConstraint;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
