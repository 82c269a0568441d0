/**
 * Normalisation shared by the people import and the people stores, so an exact lookup finds what
 * an import stored, and the natural key a re-import updates by.
 *
 * - names: Unicode compatibility-decomposed, accents dropped, lower-cased, everything but letters
 *   and digits removed (`O'Brien` → `obrien`, `Mary-Ann` → `maryann`, `José` → `jose`);
 * - street and city: accents dropped, upper-cased, `'` `’` `.` removed, every other run of
 *   punctuation or white space turned into one space, trimmed (`123 Main St., Apt #4` →
 *   `123 MAIN ST APT 4`). USPS abbreviations are not expanded here: `Street` and `St` differ
 *   (fuzzy matching belongs to identity);
 * - state: trimmed, upper-cased; ZIP5: the first five digits of a ZIP or ZIP+4.
 */
import { hash } from 'node:crypto';

const MARKS = /\p{M}/gu;

export function normalizeName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(MARKS, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

export function normalizeStreet(street: string): string {
  return street
    .normalize('NFKD')
    .replace(MARKS, '')
    .toUpperCase()
    .replace(/['’.]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Cities follow the street rules (`St. Louis` → `ST LOUIS`). */
export const normalizeCity = normalizeStreet;

export function normalizeState(state: string): string {
  return state.trim().toUpperCase();
}

/** `12345` of `12345` or `12345-6789`; empty when the value does not start with five digits. */
export function zip5Of(zip: string): string {
  return /^\s*(\d{5})(?:$|[-\s]?\d{4}\s*$|\s*$)/.exec(zip)?.[1] ?? '';
}

export interface KeySource {
  /** The record's own identifier, when it has one. */
  personId?: string | null;
  firstName: string;
  lastName: string;
  address: string;
  zip: string;
  emails: readonly string[];
}

/**
 * The natural key a re-import updates by: the record's `person_id` when present; otherwise
 * `n:` + SHA-1 of normalised `first|last|street|zip5` when all four are present; otherwise
 * `e:` + SHA-1 of the first listed email (a person known only by email). Without a `person_id`,
 * a re-import that changes the name, street or ZIP — or, for email-only people, the first email —
 * makes a new person: files that carry corrections should carry `person_id`.
 */
export function personKeyOf(source: KeySource): string {
  const personId = source.personId?.trim();
  if (personId) return personId;
  const parts = [normalizeName(source.firstName), normalizeName(source.lastName), normalizeStreet(source.address), zip5Of(source.zip)];
  if (parts.every((part) => part !== '')) return `n:${sha1(parts.join('|'))}`;
  const email = source.emails[0];
  if (email === undefined) throw new RangeError('a person needs a person_id, an email, or first and last name, street and ZIP');
  return `e:${sha1(email.trim().toLowerCase())}`;
}

function sha1(text: string): string {
  return hash('sha1', text, 'hex');
}
