/**
 * A matched person (and the address's activity) onto the flat enrichment record: only the
 * selected fields, only values we hold, in the reference's field order. Pure.
 */
import type { EamObject } from './activity-metrics.js';
import type { FieldSelection } from './field-selection.js';
import type { PersonRecord } from './person.js';

export type EnrichmentRecord = Record<string, unknown>;

export function projectPerson(person: PersonRecord | undefined, eam: EamObject | undefined, selection: FieldSelection, withPostal: boolean): EnrichmentRecord {
  const out: EnrichmentRecord = {};
  if (person) {
    for (const field of selection.record) {
      if (field === 'interests') {
        if (person.interests.length > 0) out.interests = Object.fromEntries(person.interests.map((i) => [i, true]));
      } else if (field === 'zip') {
        if (person.zip) out.zip = person.zip.slice(0, 5);
      } else {
        const value = person.fields[field];
        if (value !== undefined && value !== null && value !== '') out[field] = value;
      }
    }
  }
  if (eam && selection.eam.length > 0) {
    const picked: Record<string, unknown> = {};
    for (const sub of selection.eam) if (sub in eam) picked[sub] = eam[sub as keyof EamObject];
    out.eam = picked;
  }
  if (person && withPostal && selection.postalAddress) {
    out.postal_address = postalAddressOf(person);
  }
  return out;
}

/** The reference's postal address object (zip as stored: ZIP+4 when the data has it). */
export function postalAddressOf(person: PersonRecord): PostalAddressObject {
  return {
    first_name: person.firstName,
    last_name: person.lastName,
    address: person.address,
    city: person.city,
    state: person.state,
    zip: person.zip,
  };
}

export interface PostalAddressObject {
  first_name: string;
  last_name: string;
  address: string;
  city: string;
  state: string;
  zip: string;
}

/** Billable units: each top-level field returned (decisions §3: only data actually received). */
export function countReturnedFields(record: EnrichmentRecord): number {
  return Object.keys(record).length;
}
