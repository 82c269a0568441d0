/**
 * The entries a key's ESP outcomes put on its lists (src/outcomes/ ingests them, storage keeps
 * them), as verification reads them, and which of them count for a key, pure: its own always do
 * (a key learns from its own mail); another key's only when that key shares its outcomes and the listing is corroborated:
 * entries of the same list from two or more sharing keys, so one customer cannot make an address
 * invalid for all. (An operator's approval puts the address on the shared policy list instead:
 * `mailsure outcomes approve`.)
 */
import type { PolicyEntry } from './policy-store.js';

/** The key's lists an outcome may put an address on: bouncers (520) and complainers (525). */
export type OutcomeListKind = 'bouncer' | 'complainer';

/** An address a key's outcomes put on one of its lists. */
export interface OutcomeEntry {
  keyId: number;
  kind: OutcomeListKind;
  /** The address as verification looks it up (lower-case local part @ A-label domain). */
  value: string;
  /** The key shared its outcomes when the entry was made. */
  shared: boolean;
  /** ISO 8601: when the event that made it happened. */
  eventAt: string;
  /** ISO 8601: the entry counts until then. */
  expiresAt: string;
}

/** Keys whose shared entries corroborate each other. */
export const CORROBORATING_KEYS = 2;

export function countingOutcomeEntries(entries: readonly OutcomeEntry[], keyId: number): PolicyEntry[] {
  const kinds = new Set<OutcomeListKind>();
  const sharers = new Map<OutcomeListKind, Set<number>>();
  for (const entry of entries) {
    if (entry.keyId === keyId) kinds.add(entry.kind);
    else if (entry.shared) {
      let keys = sharers.get(entry.kind);
      if (!keys) sharers.set(entry.kind, (keys = new Set()));
      keys.add(entry.keyId);
    }
  }
  for (const [kind, keys] of sharers) if (keys.size >= CORROBORATING_KEYS) kinds.add(kind);
  const value = entries[0]?.value;
  return value === undefined ? [] : [...kinds].sort().map((kind) => ({ kind, value, origin: 'outcome' as const }));
}
