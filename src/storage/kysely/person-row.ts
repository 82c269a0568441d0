/** Conversions between `people` / `person_emails` rows and the people domain's records (each row prepared by people/person-row.ts). */
import type { Insertable, Selectable } from 'kysely';
import type { PersonFields, PersonProfile, PersonRecord } from '../../people/person.js';
import type { PersonRow } from '../../people/people-store.js';
import type { PeopleTable } from '../database.js';

export function personRow({ person: p, normalized: n, blocking, record }: PersonRow, updatedAt: string): Insertable<PeopleTable> {
  return {
    person_key: p.personKey,
    first_name: p.firstName,
    middle_name: p.middleName,
    last_name: p.lastName,
    address: p.address,
    city: p.city,
    state: p.state,
    zip: p.zip,
    zip5: n.zip5,
    first_norm: n.firstNorm,
    last_norm: n.lastNorm,
    street_norm: n.streetNorm,
    city_norm: n.cityNorm,
    house_number: blocking.houseNumber,
    last_phonetic: blocking.lastPhonetic,
    fields: JSON.stringify(p.fields),
    interests: JSON.stringify(p.interests),
    record: record.json,
    record_fields: record.fields,
    updated_at: updatedAt,
  };
}

/** The columns a PersonRecord is read from: lookups select these, not the normalised ones. */
export const PERSON_COLUMNS = [
  'p.id',
  'p.person_key',
  'p.first_name',
  'p.middle_name',
  'p.last_name',
  'p.address',
  'p.city',
  'p.state',
  'p.zip',
  'p.fields',
  'p.interests',
] as const;
type PersonColumns =
  'id' | 'person_key' | 'first_name' | 'middle_name' | 'last_name' | 'address' | 'city' | 'state' | 'zip' | 'fields' | 'interests';

export function toPerson(row: Pick<Selectable<PeopleTable>, PersonColumns>, emails: string[]): PersonRecord {
  return {
    id: row.id,
    personKey: row.person_key,
    firstName: row.first_name,
    middleName: row.middle_name,
    lastName: row.last_name,
    address: row.address,
    city: row.city,
    state: row.state,
    zip: row.zip,
    fields: JSON.parse(row.fields) as PersonFields,
    interests: JSON.parse(row.interests) as string[],
    emails,
  };
}

/** A people row joined with one of its emails (null when it has none) and, for lookups, the value matched. */
export type JoinedRow = Pick<Selectable<PeopleTable>, PersonColumns> & { owned: string | null; matched?: string };

/**
 * Folds joined rows, ordered by person id then email position, into records keyed by `keyOf`.
 * A key whose rows name two people (two addresses with one hash) keeps the first person, and is
 * added to `shared` when given (the caller drops it: two people's addresses reaching one mailbox).
 */
export function foldPeople<K>(
  rows: readonly JoinedRow[],
  keyOf: (row: JoinedRow) => K,
  into = new Map<K, PersonRecord>(),
  shared?: Set<K>,
): Map<K, PersonRecord> {
  for (const row of rows) {
    const key = keyOf(row);
    let record = into.get(key);
    if (record === undefined) into.set(key, (record = toPerson(row, [])));
    // A mailbox reached by two of the person's spellings joins their emails twice: once each.
    if (record.id === row.id && row.owned !== null && !record.emails.includes(row.owned)) record.emails.push(row.owned);
    else if (record.id !== row.id) shared?.add(key);
  }
  return into;
}

/** The columns a profile is read from, and the postal ones added when the answer needs them. */
export const PROFILE_COLUMNS = ['p.record', 'p.record_fields'] as const;
export const POSTAL_COLUMNS = ['p.first_name', 'p.last_name', 'p.address', 'p.city', 'p.state', 'p.zip'] as const;

/** A profile lookup's row: the value matched, the address it matched, and the person's columns. */
export type ProfileRow = Pick<Selectable<PeopleTable>, 'record' | 'record_fields'> &
  Partial<Pick<Selectable<PeopleTable>, 'first_name' | 'last_name' | 'address' | 'city' | 'state' | 'zip'>> & {
    matched: string;
    email: string;
    person_id: number | string;
  };

export function profileOf(row: ProfileRow): PersonProfile {
  const profile: PersonProfile = { record: { json: row.record, fields: Number(row.record_fields) } };
  if (row.first_name !== undefined) {
    profile.postal = {
      firstName: row.first_name,
      lastName: row.last_name!,
      address: row.address!,
      city: row.city!,
      state: row.state!,
      zip: row.zip!,
    };
  }
  return profile;
}
