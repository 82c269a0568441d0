/**
 * One row of `mailsure import people` (decisions §2) checked and turned into a NewPerson. Every
 * problem of a row is reported with its field name; an unknown column rejects the row, since a
 * misspelt column name would otherwise drop its data without a word.
 */
import { closest, distance } from 'fastest-levenshtein';
import { classifySyntax } from '../verification/syntax.js';
import { CATALOG, DATE_FIELDS, INTEGER_FIELDS, INTERESTS } from './catalog.js';
import { RECORD_FIELDS } from './field-names.js';
import type { NewPerson, PersonFields } from './person.js';
import { normalizeName, normalizeState, normalizeStreet, personKeyOf } from './person-key.js';
import { US_STATE_CODES } from './us-states.js';

/** Sane bounds: a century between orders; ten million dollars an order. */
const INTEGER_MAX: Readonly<Record<(typeof INTEGER_FIELDS)[number], number>> = {
  rfm_offline_avg_days: 36_500,
  rfm_online_avg_days: 36_500,
  rfm_avg_dollars: 10_000_000,
};
const MAX_EMAILS = 100;
const ZIP = /^(\d{5})-?(\d{4})?$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

const NAME_FIELDS = ['first_name', 'middle_name', 'last_name'] as const;
const IDENTITY_FIELDS = ['person_id', 'email', 'emails', ...NAME_FIELDS, 'address', 'city', 'state', 'zip'] as const;
const INTEGERS: ReadonlySet<string> = new Set(INTEGER_FIELDS);
const DATES: ReadonlySet<string> = new Set(DATE_FIELDS);
/** Enrichment fields in the reference's order. */
export const ENRICHMENT_IMPORT_FIELDS: readonly string[] = RECORD_FIELDS.filter(
  (f) => Object.hasOwn(CATALOG, f) || INTEGERS.has(f) || DATES.has(f),
);
/** Every column a people file may have. */
export const PERSON_COLUMNS: readonly string[] = [...IDENTITY_FIELDS, ...ENRICHMENT_IMPORT_FIELDS, 'interests'];

/**
 * A person, or why the row can't load. An address that can't be anybody's (a provider's username
 * rule, bad syntax) is skipped with a warning rather than dropping the person's name, postal
 * address and fields with it (decisions §2); it rejects the row only when nothing else
 * identifies the person.
 */
export function personFrom(record: Record<string, unknown>): { person: NewPerson; warnings: string[] } | { problems: string[] } {
  const problems = unknownFieldProblems(record, PERSON_COLUMNS);
  const problem = (field: string, message: string) => problems.push(`${field}: ${message}`);
  /** Trimmed text; `normalize` says whether anything is left to match on. */
  const text = (field: string, max: number, normalize?: (s: string) => string): string => {
    const value = record[field];
    if (isBlank(value)) return '';
    const trimmed = typeof value === 'string' ? value.trim() : '';
    const wrong =
      textProblem(value, max) ?? (normalize && normalize(trimmed) === '' ? `${describe(trimmed)} has no letters or digits` : undefined);
    if (wrong) problem(field, wrong);
    return wrong ? '' : trimmed;
  };
  const identityProblems = () => problems.filter((p) => IDENTITY_FIELDS.some((f) => p.startsWith(`${f}:`))).length;

  const personId = personIdOf(record.person_id, (m) => problem('person_id', m));
  const emailsAt = problems.length;
  const skipped: string[] = [];
  const emails = emailsOf(record, problem, (field, m) => skipped.push(`${field}: ${m}`));
  const firstName = text('first_name', 100, normalizeName);
  const middleName = text('middle_name', 100);
  const lastName = text('last_name', 100, normalizeName);
  const address = text('address', 200, normalizeStreet);
  const city = text('city', 100);
  let state = text('state', 100);
  if (state !== '') {
    if (US_STATE_CODES.has(normalizeState(state))) state = normalizeState(state);
    else problem('state', `${describe(state)} is not a two-letter US state or territory code`);
  }
  const zip = zipOf(record.zip, (m) => problem('zip', m));

  const hasPostal = firstName !== '' && lastName !== '' && address !== '' && zip !== '';
  if (emails.length === 0 && !hasPostal && identityProblems() === 0 && skipped.length === 0) {
    problems.push('needs an email, or first_name, last_name, address and zip');
  }

  const fields = enrichmentOf(record, problem);
  const interests = interestsOf(record.interests, (m) => problem('interests', m));
  const identified = emails.length > 0 || hasPostal;
  // A rejected row lists its bad addresses among its reasons, where they stand in the row.
  if (problems.length > 0 || !identified) return { problems: [...problems.slice(0, emailsAt), ...skipped, ...problems.slice(emailsAt)] };
  const keySource = { personId, firstName, lastName, address, zip, emails };
  return {
    person: {
      personKey: personKeyOf(keySource),
      firstName,
      middleName: middleName === '' ? null : middleName,
      lastName,
      address,
      city,
      state,
      zip,
      fields,
      interests,
      emails,
    },
    warnings: skipped.map((m) => `${m}; skipped, the rest of the row loaded`),
  };
}

function personIdOf(value: unknown, problem: (m: string) => void): string | null {
  if (isBlank(value)) return null;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  const wrong = textProblem(value, 200);
  if (wrong) {
    problem(wrong);
    return null;
  }
  return (value as string).trim();
}

/**
 * `email` and `emails` (an array, or in CSV one string separated by `,` `;` or `|`), merged. A
 * string that is not a possible address goes to `skip`; a value of the wrong shape is a problem.
 */
function emailsOf(
  record: Record<string, unknown>,
  problem: (field: string, m: string) => void,
  skip: (field: string, m: string) => void,
): string[] {
  const found: string[] = [];
  const add = (field: string, value: unknown) => {
    if (isBlank(value)) return;
    if (typeof value !== 'string') return problem(field, `${describe(value)} is not a string`);
    const wrong = emailProblem(value);
    if (wrong) skip(field, wrong);
    else found.push(value.trim().toLowerCase());
  };
  add('email', record.email);
  const list = record.emails;
  if (Array.isArray(list)) {
    if (list.length > MAX_EMAILS) problem('emails', `more than ${MAX_EMAILS} addresses`);
    else for (const item of list) add('emails', item);
  } else if (typeof list === 'string') {
    const parts = list.split(/[,;|]/).filter((p) => p.trim() !== '');
    if (parts.length > MAX_EMAILS) problem('emails', `more than ${MAX_EMAILS} addresses`);
    else for (const part of parts) add('emails', part);
  } else if (!isBlank(list)) {
    problem('emails', `${describe(list)} is not a list of addresses`);
  }
  return [...new Set(found)];
}

/** `12345` or `12345-6789` (also accepted: `123456789`). A number is refused: it loses leading zeros. */
function zipOf(value: unknown, problem: (m: string) => void): string {
  if (isBlank(value)) return '';
  const match = typeof value === 'string' ? ZIP.exec(value.trim()) : null;
  if (!match) {
    problem(`${describe(value)} is not a ZIP code (12345 or 12345-6789${typeof value === 'number' ? ', as a string' : ''})`);
    return '';
  }
  return match[2] ? `${match[1]}-${match[2]}` : match[1]!;
}

function enrichmentOf(record: Record<string, unknown>, problem: (field: string, m: string) => void): PersonFields {
  const fields: PersonFields = {};
  for (const field of ENRICHMENT_IMPORT_FIELDS) {
    const value = record[field];
    if (isBlank(value)) continue;
    const allowed = Object.hasOwn(CATALOG, field) ? CATALOG[field] : undefined;
    if (allowed) {
      const choice = typeof value === 'string' ? value.trim() : undefined;
      if (choice !== undefined && allowed.includes(choice)) fields[field] = choice;
      else problem(field, catalogProblem(value, allowed));
    } else if (INTEGERS.has(field)) {
      const n = wholeNumber(value);
      const max = INTEGER_MAX[field as keyof typeof INTEGER_MAX];
      if (n === undefined) problem(field, `${describe(value)} is not a whole number`);
      else if (n > max) problem(field, `${describe(value)} is out of range (0 to ${max})`);
      else fields[field] = n;
    } else {
      const day = typeof value === 'string' ? realDay(value.trim()) : undefined;
      if (day === undefined) problem(field, `${describe(value)} is not a date YYYY-MM-DD`);
      else fields[field] = day;
    }
  }
  return fields;
}

function catalogProblem(value: unknown, allowed: readonly string[]): string {
  if (typeof value !== 'string') return `${describe(value)} is not a string`;
  const folded = allowed.find((a) => a.toLowerCase() === value.trim().toLowerCase());
  if (folded) return `${describe(value)} is not an allowed value (did you mean "${folded}"?)`;
  return allowed.length <= 15
    ? `${describe(value)} is not one of ${allowed.join(', ')}`
    : `${describe(value)} is not one of the ${allowed.length} values of the reference`;
}

/** A non-negative safe integer, from a JSON number or a string of digits. */
function wholeNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string' || !/^\d{1,16}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/** A calendar date between 1900 and 2100. */
function realDay(text: string): string | undefined {
  const m = DAY.exec(text);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  const real = date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
  return real && y >= 1900 && y <= 2100 ? text : undefined;
}

/** Interest names, as an array, or in CSV one string separated by `,` or `|`; kept in catalog order. */
function interestsOf(value: unknown, problem: (m: string) => void): string[] {
  if (isBlank(value)) return [];
  const names = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[,|]/) : undefined;
  if (names === undefined || names.length > INTERESTS.length * 2) {
    problem(`${describe(value)} is not a list of interest names`);
    return [];
  }
  const chosen = new Set<string>();
  for (const name of names) {
    const trimmed = typeof name === 'string' ? name.trim() : name;
    if (trimmed === '') continue;
    if (typeof trimmed === 'string' && (INTERESTS as readonly string[]).includes(trimmed)) chosen.add(trimmed);
    else problem(`${describe(name)} is not an interest category`);
  }
  return INTERESTS.filter((i) => chosen.has(i));
}

// Checks shared with activity-record.ts.

/** Absent, null, or only white space: CSV writes a missing value as an empty cell. */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** A value for a message: quoted, shortened, never spanning lines. */
export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return 'a list';
  return value === null ? 'null' : `an ${typeof value}`;
}

/** Why a value is not acceptable text of at most `max` characters, or undefined when it is. */
export function textProblem(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return `${describe(value)} is not text`;
  const trimmed = value.trim();
  if (trimmed.length > max) return `longer than ${max} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return `${describe(trimmed)} contains a control character`;
  return undefined;
}

/** Why a (trimmed) address fails the syntax stage, or undefined when it passes. */
export function emailProblem(raw: string): string | undefined {
  const verdict = classifySyntax(raw.trim());
  return verdict.ok ? undefined : `${describe(raw.trim())} is not a valid address (${verdict.reason})`;
}

/** One problem per column the record may not have, at most 10 listed. */
export function unknownFieldProblems(record: Record<string, unknown>, allowed: readonly string[]): string[] {
  const known = new Set(allowed);
  // A trailing comma in a CSV header makes a nameless, empty column: nothing is lost by it.
  const unknown = Object.keys(record).filter((key) => !known.has(key) && !(key === '' && isBlank(record[key])));
  const problems = unknown.slice(0, 10).map((key) => {
    const near = key === '' ? undefined : closest(key, [...allowed]);
    const hint = near !== undefined && distance(key, near) <= 2 ? ` (did you mean ${near}?)` : '';
    return `${/^[a-z0-9_]{1,40}$/i.test(key) ? key : describe(key)}: unknown field${hint}`;
  });
  if (unknown.length > 10) problems.push(`and ${unknown.length - 10} more unknown fields`);
  return problems;
}
