/** What verification needs from the shared policy lists (storage/ implements it on every engine). */

/** Shared policy lists of decisions §2 (`mailsure import policy --kind …`). */
export const POLICY_KINDS = ['trap', 'complainer', 'optout', 'do_not_email', 'bouncer'] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

/** One address (`local@domain`) or a whole domain (A-label form), lower-cased. */
export interface PolicyEntry {
  kind: PolicyKind;
  value: string;
  /** `outcome`: the key's bouncers or complainers learnt from its ESP's outcomes (src/outcomes/), not an imported list. */
  origin?: 'outcome';
}

export interface PolicyStore {
  /** Adds entries, ignoring ones already present; returns how many were new. */
  add(entries: PolicyEntry[]): Promise<number>;
  /** Entries for this exact address, then for its whole domain. */
  match(address: string, domain: string): Promise<PolicyEntry[]>;
  count(kind: PolicyKind): Promise<number>;
  /** Whether any list holds any entry. */
  hasAny(): Promise<boolean>;
}
