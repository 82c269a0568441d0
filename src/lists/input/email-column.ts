/**
 * Which column holds the addresses (0-based), from the `email_column` parameter, the header,
 * or the values themselves.
 *
 * 1. `email_column` (1-based) wins, once it is known to be within the file's columns.
 * 2. A file with one column is all emails.
 * 3. With a header: the column named like an email (see header-map); two such names are
 *    ambiguous.
 * 4. Otherwise (no header, or a header naming no email column): the columns whose sampled values
 *    mostly look like addresses. One is chosen; several are ambiguous; none is "No email column
 *    found" without a header, and "no email column" (undefined) with one, because a header can
 *    still feed the name+postal services (`planServices` decides whether that is enough).
 */
import { errors } from '../../core/errors.js';
import { fail, ok, type Outcome } from '../outcome.js';
import { mapHeader } from './header-map.js';
import { looksLikeEmail } from './header-row.js';

export const NO_EMAIL_COLUMN = 'No email column found';

export interface EmailColumnInput {
  /** The header row, when the file has one. */
  header?: readonly string[];
  /** The first data rows. */
  sample: readonly (readonly string[])[];
  /** Columns of the widest row (header included). */
  columnCount: number;
  /** The `email_column` parameter, 1-based. */
  emailColumn?: number;
}

/** The `email_column` parameter; failure reasons are for a 400. */
export function parseEmailColumn(raw: string | undefined): Outcome<number | undefined> {
  if (raw === undefined || raw.trim() === '') return ok(undefined);
  const n = /^\s*\d{1,6}\s*$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1)) return fail(errors.invalidParameter('email_column', 'must be a 1-based column number').message);
  return ok(n);
}

function emailLikeColumns(sample: readonly (readonly string[])[], columnCount: number): number[] {
  const found: number[] = [];
  for (let column = 0; column < columnCount; column++) {
    let filled = 0;
    let emails = 0;
    for (const row of sample) {
      const value = row[column]?.trim() ?? '';
      if (value === '') continue;
      filled++;
      if (looksLikeEmail(value)) emails++;
    }
    if (emails > 0 && emails * 2 > filled) found.push(column);
  }
  return found;
}

/** A column as the caller counts it (1-based), with its header name when there is one. */
const label = (column: number, header: readonly string[] | undefined) =>
  header?.[column] !== undefined ? `${column + 1} (${header[column]})` : `${column + 1}`;

function ambiguous(columns: number[], header: readonly string[] | undefined): string {
  return `Ambiguous email columns: ${columns.map((c) => label(c, header)).join(', ')}; choose one with email_column`;
}

/**
 * The `email_column` parameter names a column in which no sampled value looks like an address
 * (a name, a phone number: usually a column counted from 0, or a file that gained a column):
 * the reason to refuse the list with, naming the columns that do hold addresses. Undefined when
 * the parameter was not given or its column holds addresses. Whether it matters depends on the
 * services (`planServices`): name + postal append never reads the column.
 */
export function emailColumnMismatch(input: EmailColumnInput): string | undefined {
  const { header, sample, columnCount, emailColumn } = input;
  if (emailColumn === undefined) return undefined;
  const column = emailColumn - 1;
  if (sample.some((row) => looksLikeEmail(row[column] ?? ''))) return undefined;
  const reason = `email_column ${label(column, header)} holds no email addresses`;
  const others = emailLikeColumns(sample, columnCount).filter((c) => c !== column);
  if (others.length === 0) return reason;
  const named = others.map((c) => label(c, header)).join(', ');
  return others.length === 1 ? `${reason}; column ${named} does` : `${reason}; columns ${named} do`;
}

export function pickEmailColumn(input: EmailColumnInput): Outcome<number | undefined> {
  const { header, sample, columnCount, emailColumn } = input;
  if (emailColumn !== undefined) {
    if (emailColumn > columnCount) {
      return fail(`email_column is ${emailColumn} but the file has ${columnCount} column${columnCount === 1 ? '' : 's'}`);
    }
    return ok(emailColumn - 1);
  }
  if (columnCount === 1) return ok(0);
  const named = header ? (mapHeader(header).all.email ?? []) : [];
  if (named.length === 1) return ok(named[0]);
  if (named.length > 1) return fail(ambiguous(named, header));
  const detected = emailLikeColumns(sample, columnCount);
  if (detected.length === 1) return ok(detected[0]);
  if (detected.length > 1) return fail(ambiguous(detected, header));
  return header ? ok(undefined) : fail(NO_EMAIL_COLUMN);
}
