/**
 * A person as Mailsure stores them: identity (name, postal address, emails) and the enrichment
 * fields of the api-reference, by their API names with their API value strings.
 */

/**
 * A person's full record as JSON (every field we hold, reference order) and its top-level field
 * count (what metering bills, decisions §3): what the store keeps, made by prepared-record.ts.
 */
export interface PreparedRecord {
  json: string;
  fields: number;
}

/** Enrichment values by API field name (`age`, `household_income`, `rfm_avg_dollars`, …). */
export type PersonFields = Partial<Record<string, string | number>>;

export interface NewPerson {
  /**
   * The natural key a re-import updates by: the record's own `person_id` when it has one,
   * otherwise derived from the normalised name and postal address (see person-key.ts).
   */
  personKey: string;
  firstName: string;
  middleName: string | null;
  lastName: string;
  /** Street address line, as given (trimmed). */
  address: string;
  city: string;
  /** Two-letter state code, upper-case. */
  state: string;
  /** ZIP+4 `12345-6789` or ZIP5 `12345`. */
  zip: string;
  fields: PersonFields;
  /** Interest category names (api-reference "Interests object"). */
  interests: string[];
  /** Lower-cased, trimmed addresses; an address belongs to one person (the last import wins). */
  emails: string[];
}

export interface PersonRecord extends NewPerson {
  id: number;
}

/** The postal part of a person (the postal_address object's source). */
export type PersonPostal = Pick<PersonRecord, 'firstName' | 'lastName' | 'address' | 'city' | 'state' | 'zip'>;

/**
 * What an enrichment answer is made of for a person found by an address: their full record,
 * ready (prepared-record.ts), and, when the lookup asked for it, their postal address.
 */
export interface PersonProfile {
  record: PreparedRecord;
  postal?: PersonPostal;
}

/** A profile found by an address or its hash, with the address that matched. */
export interface MatchedProfile {
  email: string;
  profile: PersonProfile;
}

/** The identifier an address lookup goes by. */
export type AddressKey = 'email' | 'sha1' | 'md5';

/** An address lookup's identifier, or the mailbox key (mailbox.ts) a plain address falls back to. */
export type LookupKey = AddressKey | 'mailbox';

export interface ActivityEvent {
  /** Lower-cased, trimmed address. */
  email: string;
  source: string;
  /** `YYYY-MM-DD` (UTC). */
  seenOn: string;
  event: 'seen' | 'open';
}

/** What the email activity metrics are computed from, for one address. */
export interface ActivityStats {
  /** Earliest event day, or null when the address was never seen. */
  firstSeen: string | null;
  /** Events on or after `since6m`. */
  events6m: number;
  /** Distinct sources with an event on or after `since12m`. */
  sources12m: number;
  /** Latest `open` day on or after `since12m`, or null. */
  lastOpen12m: string | null;
}

/** Exact lookups by normalised name and postal address (fuzzy matching comes with identity). */
export interface NameAddressQuery {
  firstName: string;
  lastName: string;
  /** Normalised street line, when the query has one. */
  address?: string;
  city?: string;
  state?: string;
  /** Five digits. */
  zip5?: string;
}
