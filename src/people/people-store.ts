/**
 * What enrichment and identity append need from the people store (storage/ implements it on
 * every engine). The matcher's own port, identity's `CandidateStore`, is a separate interface the
 * same stores implement: the person model does not know how identity narrows it.
 */
import type { AddressKey, MatchedProfile, NameAddressQuery, NewPerson, PersonRecord } from './person.js';

export interface PeopleStore {
  /**
   * Inserts or updates by `personKey`; an email moves to the person that lists it last. `demo`:
   * the synthetic demo people (MAILSURE_DEMO), which `mailsure demo remove` deletes; without it
   * the people are the operator's, a demo person upserted again included.
   */
  upsert(people: NewPerson[], marks?: { demo?: boolean }): Promise<{ inserted: number; updated: number }>;
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
