/**
 * Statement sizes shared by the kysely stores. Lookups bind one parameter per value; inserts bind
 * one per column. Both stay far below SQLite's 32,766 variables and PostgreSQL's 65,535.
 */
export const LOOKUP_CHUNK = 500;

/** Splits `items` into consecutive slices of at most `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}
