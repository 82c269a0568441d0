/**
 * Client lists and shared policy lists, pure. The client's own word comes first (its exception
 * or suppression, the more specific entry winning, as the stores order them); then the shared
 * lists, where the most serious listing decides.
 */
import type { ClientListEntry } from './client-list-store.js';
import type { PolicyEntry, PolicyKind } from './policy/policy-store.js';
import { CODE, type StatusCode } from './codes.js';

const POLICY_CODE: Record<PolicyKind, StatusCode> = {
  trap: CODE.trap,
  complainer: CODE.trap,
  optout: CODE.optedOut,
  do_not_email: CODE.doNotEmail,
  bouncer: CODE.bouncer,
};

export function decideClientLists(entries: ClientListEntry[]): { code: StatusCode } | undefined {
  const first = entries[0];
  if (!first) return undefined;
  return { code: first.kind === 'exception' ? CODE.exception : CODE.suppressed };
}

export function decidePolicy(entries: PolicyEntry[], bouncersEnabled: boolean): { code: StatusCode } | undefined {
  const worst = decidingPolicyEntry(entries, bouncersEnabled);
  return worst ? { code: POLICY_CODE[worst.kind] } : undefined;
}

/** The entry that decides (a verdict's evidence names its list). */
export function decidingPolicyEntry(entries: PolicyEntry[], bouncersEnabled: boolean): PolicyEntry | undefined {
  const usable = entries.filter((e) => e.kind !== 'bouncer' || bouncersEnabled);
  // Traps and complainers first (they hurt a sender most), then opt-outs, do-not-email, bouncers.
  const order: PolicyKind[] = ['trap', 'complainer', 'optout', 'do_not_email', 'bouncer'];
  return usable.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind))[0];
}
