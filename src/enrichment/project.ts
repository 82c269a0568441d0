/**
 * A matched person (and the address's activity) onto the flat enrichment record: only the
 * selected fields, only values we hold, in the reference's field order. Pure.
 *
 * The store keeps each person's full record ready as JSON (a PreparedRecord, made by
 * people/prepared-record.ts when the person is stored), so an answer for a key that may see every
 * field is that text with `eam` and `postal_address` appended: no parse, no projection, no serialiser on the hot path. A narrower
 * selection parses it and keeps the selected fields.
 */
import type { EamObject } from './activity-metrics.js';
import type { FieldSelection } from './field-selection.js';
import { PERSON_FIELDS } from '../people/field-names.js';
import type { PersonPostal } from '../people/person.js';
import type { EnrichmentRecord, PreparedRecord } from '../people/prepared-record.js';

export type { EnrichmentRecord, PreparedRecord };

/** An answer ready to send: its JSON and its top-level field count (what metering bills, decisions §3); a person's prepared record has the same form. */
export type EnrichmentAnswer = PreparedRecord;

export const EMPTY_ANSWER: EnrichmentAnswer = Object.freeze({ json: '{}', fields: 0 });

/**
 * The answer for a matched person (undefined: unmatched) under a selection: the selected person
 * fields, then `eam` when given and selected, then `postal_address` when given and selected.
 */
export function answerFor(
  prepared: PreparedRecord | undefined,
  postal: PersonPostal | undefined,
  eam: EamObject | undefined,
  selection: FieldSelection,
): EnrichmentAnswer {
  const parts: string[] = [];
  let fields = 0;
  if (prepared && prepared.fields > 0 && selection.record.length > 0) {
    if (selection.record.length === PERSON_FIELDS.length) {
      parts.push(prepared.json.slice(1, -1));
      fields += prepared.fields;
    } else {
      const full = JSON.parse(prepared.json) as EnrichmentRecord;
      const picked: EnrichmentRecord = {};
      for (const field of selection.record) if (field in full) picked[field] = full[field];
      const count = Object.keys(picked).length;
      if (count > 0) parts.push(JSON.stringify(picked).slice(1, -1));
      fields += count;
    }
  }
  if (eam && selection.eam.length > 0) {
    const picked: Record<string, unknown> = {};
    for (const sub of selection.eam) if (sub in eam) picked[sub] = eam[sub as keyof EamObject];
    parts.push(`"eam":${JSON.stringify(picked)}`);
    fields += 1;
  }
  const address = postal && selection.postalAddress ? postalAddressOf(postal) : undefined;
  if (address) {
    parts.push(`"postal_address":${JSON.stringify(address)}`);
    fields += 1;
  }
  return fields === 0 ? EMPTY_ANSWER : { json: `{${parts.join(',')}}`, fields };
}

/**
 * The reference's postal address object (zip as stored: ZIP+4 when the data has it), or
 * undefined for a person known by email alone: an object of empty strings is no answer, and
 * must not be sent or billed (decisions §3, only data actually received is charged).
 */
export function postalAddressOf(person: PersonPostal): PostalAddressObject | undefined {
  const object: PostalAddressObject = {
    first_name: person.firstName,
    last_name: person.lastName,
    address: person.address,
    city: person.city,
    state: person.state,
    zip: person.zip,
  };
  return Object.values(object).some((value) => value !== '') ? object : undefined;
}

export interface PostalAddressObject {
  first_name: string;
  last_name: string;
  address: string;
  city: string;
  state: string;
  zip: string;
}
