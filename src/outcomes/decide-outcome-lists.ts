/**
 * Which outcome entries count for a key, pure. Its own always do (a key learns from its own
 * mail). Another key's only when that key shares its outcomes and the listing is corroborated:
 * entries of the same list from two or more sharing keys, so one customer cannot make an address
 * invalid for all. (An operator's approval puts the address on the shared policy list instead:
 * `mailsure outcomes approve`.)
 */
import type { PolicyEntry } from '../verification/policy/policy-store.js';
import type { OutcomeEntry, OutcomeListKind } from './outcome-store.js';

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
