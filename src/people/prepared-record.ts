/**
 * A person's full enrichment record, ready: every person field we hold, in the reference's field
 * order, as JSON with its top-level field count. Computed once when a person is stored (the store
 * keeps the JSON), so an answer for a key that may see every field is that text, unparsed
 * (enrichment/project.ts appends `eam` and `postal_address`). Pure.
 */
import { PERSON_FIELDS } from './field-names.js';
import type { PersonFields, PreparedRecord } from './person.js';

export type { PreparedRecord };

/** Fields by API name, as JSON objects the API answers with. */
export type EnrichmentRecord = Record<string, unknown>;

/** What the record is made of. */
export type RecordSource = { zip: string; fields: PersonFields; interests: readonly string[] };

/** The person fields of the record (everything but eam and postal_address), in reference order. */
export function personRecord(person: RecordSource, fields: readonly string[] = PERSON_FIELDS): EnrichmentRecord {
  const out: EnrichmentRecord = {};
  for (const field of fields) {
    if (field === 'interests') {
      if (person.interests.length > 0) out.interests = Object.fromEntries(person.interests.map((i) => [i, true]));
    } else if (field === 'zip') {
      if (person.zip) out.zip = person.zip.slice(0, 5);
    } else {
      const value = person.fields[field];
      if (value !== undefined && value !== null && value !== '') out[field] = value;
    }
  }
  return out;
}

/** What the store keeps for a person (computed when the person is stored). */
export function prepareRecord(person: RecordSource): PreparedRecord {
  const record = personRecord(person);
  return { json: JSON.stringify(record), fields: Object.keys(record).length };
}
