/**
 * The storage contracts the domain code depends on. `sqlite/` and `postgres/` implement them
 * over kysely; `memory/` implements them for unit tests. One contract suite runs against each.
 */
import type { ApiKeyRecord, KeySettings } from '../accounts/key-config.js';
import type { ActivityEvent, ActivityStats, AddressKey, MatchedProfile, NameAddressQuery, NewPerson, PersonRecord } from '../enrichment/person.js';
import type { CandidateStore } from '../identity/match/candidate-store.js';
import type { ListStore } from '../lists/list-record.js';

export type NewApiKey = KeySettings & {
  name: string;
  keyHash: string;
  keyPrefix: string;
  webhookSecret: string;
};

export interface KeyStore {
  /** Fails with `DuplicateKeyName` when the name is taken. */
  create(key: NewApiKey): Promise<ApiKeyRecord>;
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  findByName(name: string): Promise<ApiKeyRecord | undefined>;
  /** By id, revoked or not (list workers act for the key that submitted). */
  findById(id: number): Promise<ApiKeyRecord | undefined>;
  list(): Promise<ApiKeyRecord[]>;
  /** Returns the updated record, or undefined when no key has that name. */
  update(name: string, changes: Partial<KeySettings>): Promise<ApiKeyRecord | undefined>;
  /** Marks the key revoked (kept for its usage history). Undefined when no key has that name. */
  revoke(name: string, at: string): Promise<ApiKeyRecord | undefined>;
  count(): Promise<number>;
  /** Adds `calls` to the key's quota counter; returns the new total. */
  addCalls(keyId: number, calls: number): Promise<number>;
}

/** Billable units of decisions §3. */
export const USAGE_UNITS = ['verification', 'enrichment_field', 'append_match', 'list_record'] as const;
export type UsageUnit = (typeof USAGE_UNITS)[number];

export interface UsageStore {
  /** Adds counts for one key; `day` is `YYYY-MM-DD` (UTC). */
  add(keyId: number, day: string, counts: Partial<Record<UsageUnit, number>>): Promise<void>;
  /** Totals per unit over all days. */
  totals(keyId: number): Promise<Record<UsageUnit, number>>;
}

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

/** Shared policy lists of decisions §2 (`mailsure import policy --kind …`). */
export const POLICY_KINDS = ['trap', 'complainer', 'optout', 'do_not_email', 'bouncer'] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

/** One address (`local@domain`) or a whole domain (A-label form), lower-cased. */
export interface PolicyEntry {
  kind: PolicyKind;
  value: string;
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

export interface PeopleStore extends CandidateStore {
  /** Inserts or updates by `personKey`; an email moves to the person that lists it last. */
  upsert(people: NewPerson[]): Promise<{ inserted: number; updated: number }>;
  /** By lower-cased trimmed address. */
  findByEmail(email: string): Promise<PersonRecord | undefined>;
  /** By lower-case hex SHA-1 / MD5 of the lower-cased trimmed address. */
  findBySha1(hex: string): Promise<PersonRecord | undefined>;
  findByMd5(hex: string): Promise<PersonRecord | undefined>;
  /** Batched lookups for bulk requests: one round trip per identifier kind, not one per record. */
  findManyByEmail(emails: string[]): Promise<Map<string, PersonRecord>>;
  findManyBySha1(hexes: string[]): Promise<Map<string, PersonRecord>>;
  findManyByMd5(hexes: string[]): Promise<Map<string, PersonRecord>>;
  /**
   * What /v5/td and /v5/ei/bulk project, by address, SHA-1 or MD5 (one round trip a chunk): the
   * person's row alone, not their email list, so one indexed read and no fold. With `withPostal`
   * the profile carries the postal address.
   */
  findProfiles(by: AddressKey, values: readonly string[], withPostal: boolean): Promise<Map<string, MatchedProfile>>;
  /** Exact match on normalised names and the postal fields given. */
  findByNameAndAddress(query: NameAddressQuery): Promise<PersonRecord[]>;
  count(): Promise<number>;
}

export interface ActivityStore {
  /** Adds events, ignoring exact repeats (same email, source, day and event); returns how many were new. */
  add(events: ActivityEvent[]): Promise<number>;
  /** Whether any event is stored: lets verification skip engagement lookups on an empty store. */
  hasAny(): Promise<boolean>;
  /** Stats per address for the windows starting on the given days (`YYYY-MM-DD`). */
  statsFor(emails: string[], windows: { since6m: string; since12m: string }): Promise<Map<string, ActivityStats>>;
}

export class DuplicateKeyName extends Error {
  constructor(readonly keyName: string) {
    super(`a key named "${keyName}" already exists`);
    this.name = 'DuplicateKeyName';
  }
}

/** Everything the composition root gets from a storage engine. */
export interface Storage {
  /** `memory` is the test double of `storage/memory/`, never a production engine. */
  readonly engine: 'sqlite' | 'postgres' | 'memory';
  keys: KeyStore;
  usage: UsageStore;
  clientLists: ClientListStore;
  policy: PolicyStore;
  people: PeopleStore;
  activity: ActivityStore;
  lists: ListStore;
  /** Resolves when the database answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
