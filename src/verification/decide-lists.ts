/**
 * Client lists and shared policy lists, pure. The client's own word comes first (its exception
 * or suppression, the more specific entry winning, as the stores order them); then the shared
 * lists, where the most serious listing decides.
 */
import type { ClientListEntry } from './client-list-store.js';
import type { PolicyEntry, PolicyKind } from './policy/policy-store.js';
import { decided, type Decision } from './rules.js';

const POLICY: Record<PolicyKind, Decision> = {
  trap: decided('list.trap'),
  complainer: decided('list.complainer'),
  optout: decided('list.optout'),
  do_not_email: decided('list.do-not-email'),
  bouncer: decided('list.bouncer'),
};
const EXCEPTION = decided('list.client-exception');
const SUPPRESSION = decided('list.client-suppression');

export function decideClientLists(entries: ClientListEntry[]): Decision | undefined {
  const first = entries[0];
  if (!first) return undefined;
  return first.kind === 'exception' ? EXCEPTION : SUPPRESSION;
}

export function decidePolicy(entries: PolicyEntry[], bouncersEnabled: boolean): Decision | undefined {
  const worst = decidingPolicyEntry(entries, bouncersEnabled);
  return worst ? POLICY[worst.kind] : undefined;
}

/** The entry that decides (a verdict's evidence names its list). */
export function decidingPolicyEntry(entries: PolicyEntry[], bouncersEnabled: boolean): PolicyEntry | undefined {
  const usable = entries.filter((e) => e.kind !== 'bouncer' || bouncersEnabled);
  // Traps and complainers first (they hurt a sender most), then opt-outs, do-not-email, bouncers.
  const order: PolicyKind[] = ['trap', 'complainer', 'optout', 'do_not_email', 'bouncer'];
  return usable.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind))[0];
}
