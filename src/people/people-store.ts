/**
 * What enrichment and identity append need from the people store (storage/ implements it on
 * every engine). The matcher's own port, identity's `CandidateStore`, is a separate interface the
 * same stores implement: the person model does not know how identity narrows it.
 */
import type { LookupKey, MatchedProfile, NewPerson, PersonRecord, PreparedRecord } from './person.js';

export interface PeopleStore {
  /**
   * Inserts or updates by `personKey` the people of a batch that person-row.ts `preparePeople`
   * prepared; an email moves to the person that lists it last. `demo`:
   * the synthetic demo people (MAILSURE_DEMO), which `mailsure demo remove` deletes; without it
   * the people are the operator's, a demo person upserted again included.
   */
  upsert(batch: PeopleBatch, marks?: { demo?: boolean }): Promise<{ inserted: number; updated: number }>;
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
   * By mailbox key (mailbox.ts `mailboxKey`): the person whose stored addresses reach that
   * mailbox. A mailbox that the addresses of two people reach answers nothing: naming one would
   * be a guess. mailbox-lookup.ts is the call to use (the exact spelling first).
   */
  findManyByMailbox(mailboxes: string[]): Promise<Map<string, PersonRecord>>;
  /**
   * What /v5/td and /v5/ei/bulk project, by address, SHA-1 or MD5 (one round trip a chunk): the
   * person's row alone, not their email list, so one indexed read and no fold. With `withPostal`
   * the profile carries the postal address. By `mailbox`, as `findManyByMailbox`: a mailbox two
   * people reach answers nothing.
   */
  findProfiles(by: LookupKey, values: readonly string[], withPostal: boolean): Promise<Map<string, MatchedProfile>>;
  /**
   * Exact match on normalised names and the postal fields given (people-plan.ts `normalizeQuery`
   * prepares the query; `lookupByNameAndAddress` there is the call to use), at most
   * MAX_NAME_MATCHES people, in the order they were first stored.
   */
  findByNameAndAddress(query: NormalizedQuery): Promise<PersonRecord[]>;
  count(): Promise<number>;
}

/** At most this many people answer one name + address query (a household, not a city of Smiths). */
export const MAX_NAME_MATCHES = 100;

/** The columns exact lookups compare, as stored for a person. */
export interface NormalizedPerson {
  firstNorm: string;
  lastNorm: string;
  streetNorm: string;
  cityNorm: string;
  state: string;
  zip5: string;
}

/** A name + address query in stored form; optional parts the query leaves out stay undefined. */
export interface NormalizedQuery {
  firstNorm: string;
  lastNorm: string;
  streetNorm?: string;
  cityNorm?: string;
  state?: string;
  zip5?: string;
}

/** The matcher's blocking columns, stored with every person so that each block kind is one indexed lookup. */
export interface BlockingColumns {
  houseNumber: string;
  lastPhonetic: string;
}

/** How a person's blocking columns are computed (identity's `personBlockingColumns`). */
export type BlockingOf = (p: { firstName: string; lastName: string; address: string }) => BlockingColumns;

/** A person as a store writes them: the person, and every column derived from them. */
export interface PersonRow {
  person: NewPerson;
  normalized: NormalizedPerson;
  blocking: BlockingColumns;
  record: PreparedRecord;
}

/** What `upsert` writes (person-row.ts `preparePeople`). */
export interface PeopleBatch {
  /** Every person given, in order, with their emails normalised and each once: applied one by one, the reference. */
  rows: readonly PersonRow[];
  /** The same applied at once: one row per person key (its last), in the order of each key's last occurrence, emails final. */
  plan: readonly PersonRow[];
  /** SHA-1 and MD5 (lower-case hex) of every address in the batch, and its mailbox key (null without one). */
  hashes: ReadonlyMap<string, { sha1: string; md5: string; mailbox: string | null }>;
  /** Counts as if the people were applied in order: a key new to the store and to this call is new. */
  count(existingKeys: ReadonlySet<string>): { inserted: number; updated: number };
}
