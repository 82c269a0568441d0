import type { ClientListEntry } from '../verification/client-list-store.js';

/**
 * The order every engine returns matches in: the address's own entries before its domain's
 * (the more specific one first, which is also the one verification lets win), then by kind.
 * Sorted here rather than in SQL, where the database collation could order values differently.
 */
export function orderMatches(entries: ClientListEntry[], address: string): ClientListEntry[] {
  const rank = (e: ClientListEntry) => (e.value === address ? 0 : 1);
  return entries.sort((a, b) => rank(a) - rank(b) || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}
