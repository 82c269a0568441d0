/**
 * A policy file of one column without a header (decisions §2): each line is a value, an address
 * (it has an `@`) or a domain. Without this the CSV reader took the first line for a header and
 * loaded nothing. Pure, so the reading rule can be tested on its own.
 */

/** The header names of a policy file. */
const HEADER_NAMES: ReadonlySet<string> = new Set(['email', 'domain']);

/**
 * Whether a CSV file's first record is values rather than a header: one cell that names neither
 * `email` nor `domain`. A first record of several cells is a header (a file of values has one).
 */
export function isValueRow(firstRecord: readonly string[]): boolean {
  const cells = firstRecord.map((cell) => cell.replace(/^\uFEFF/, '').trim());
  const filled = cells.filter((cell) => cell !== '');
  return filled.length === 1 && cells.length === 1 && !HEADER_NAMES.has(filled[0]!.toLowerCase());
}

/** One line of a file of values, as the record a header would have given it. */
export function valueRecord(cells: readonly string[]): { record: Record<string, string> } | { problem: string } {
  const filled = cells.map((cell) => cell.trim()).filter((cell) => cell !== '');
  if (filled.length > 1) return { problem: 'more than one value on a line of a file without a header' };
  const value = filled[0] ?? '';
  return { record: value.includes('@') ? { email: value } : { domain: value } };
}
