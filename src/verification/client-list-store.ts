/** What verification needs from a key's own suppression and exception lists (storage/ implements it). */

export type ClientListKind = 'suppression' | 'exception';

/** A client-configured entry: one address (`local@domain`) or a whole domain. */
export interface ClientListEntry {
  kind: ClientListKind;
  /** Lower-cased address or domain (A-label form). */
  value: string;
}

export interface ClientListStore {
  /** Adds entries, ignoring ones already present; returns how many were new. */
  add(keyId: number, entries: ClientListEntry[]): Promise<number>;
  /**
   * The client's entries that match this address exactly or its whole domain. Verification
   * decides precedence (an address entry beats a domain entry; see the verification issue).
   */
  match(keyId: number, address: string, domain: string): Promise<ClientListEntry[]>;
  count(keyId: number, kind: ClientListKind): Promise<number>;
  /** Whether the key has any entry at all: lets verification skip lookups for most keys. */
  hasAny(keyId: number): Promise<boolean>;
}
