/**
 * Whether the start of a list reads better with another common delimiter than the one in force
 * (the extension's default: decisions §6). A tab-delimited export named `.csv`, a semicolon CSV
 * from a European Excel, a comma-separated `.txt`: read with the default, their addresses come
 * out glued to the next cells (`ann@example.com<TAB>Ann`) and every record would be verified,
 * and billed, as garbage. We say so rather than guess: the results file must use the delimiter
 * the caller will read it with, so the caller chooses (a `delimiter` parameter is never second
 * guessed: prepare-list.ts does not ask).
 *
 * The evidence, per delimiter, from the header and the first rows as that delimiter splits
 * them (quotes honoured, as the list will be read):
 *
 * 1. a column of addresses: most filled cells of some column are a bare address, with no white
 *    space or other delimiter around it;
 * 2. recognised column names in the first row (header-map.ts);
 * 3. the rows split into the same number of cells, at least two.
 *
 * Another delimiter is suspected only when its rows are consistent (3, nearly every row) and it
 * beats the default on the evidence in that order: it finds the address column the default
 * does not, or as much of that and more column names, or as much of both while the default
 * splits no row at all. A few stray commas in the notes of a tab file therefore change nothing,
 * and neither do tabs inside the cells of a real CSV: the default keeps its address column.
 */
import { CsvSplitError, CsvSplitter } from './csv-splitter.js';
import { roleOf } from './header-map.js';

const CANDIDATES = [',', '\t', ';', '|'] as const;
const NAMES: Record<string, string> = { ',': 'comma', '\t': 'tab', ';': 'semicolon', '|': 'pipe' };

/** Rows looked at: a header and the scan's sample (scan-list.ts). */
export const DELIMITER_SAMPLE_ROWS = 101;
/** Share of rows that must have the commonest width for a delimiter to count as consistent. */
const CONSISTENT_SHARE = 0.9;

export const delimiterName = (d: string) => NAMES[d] ?? `"${d}"`;

/** An address and nothing else: no white space, no second `@`, no common delimiter around it. */
const BARE_ADDRESS = /^[^\s@,;|]+@[^\s@,;|]+$/;

export interface DelimiterEvidence {
  /** Some column is mostly bare addresses. */
  addressColumn: boolean;
  /** Recognised column names in the first row. */
  names: number;
  /** The commonest number of cells in a row. */
  width: number;
  /** Every row has `width` cells. */
  uniform: boolean;
  /** At least `CONSISTENT_SHARE` of the rows have `width` cells. */
  consistent: boolean;
}

/** The first rows of `text` as `delimiter` splits them; `complete` when `text` is the whole file. */
export function sampleRows(text: string, delimiter: string, complete: boolean): string[][] {
  const splitter = new CsvSplitter(delimiter, text.length * 3 + 3);
  try {
    return splitter.write(text, complete).slice(0, DELIMITER_SAMPLE_ROWS);
  } catch (err) {
    // A quote this delimiter leaves open to the end: the rows it read before that do not exist.
    if (err instanceof CsvSplitError) return [];
    throw err;
  }
}

function hasAddressColumn(rows: readonly (readonly string[])[]): boolean {
  // Spaces around a cell are common (`a@b.com, Ann`); a tab or a line break is another cell's edge.
  const bare = (cell: string | undefined) => cell !== undefined && BARE_ADDRESS.test(cell.replace(/^ +| +$/g, ''));
  // A first row without an address is a header (or a row that says nothing about addresses).
  const data = rows.length > 0 && !rows[0]!.some(bare) ? rows.slice(1) : rows;
  const width = Math.max(0, ...data.map((row) => row.length));
  for (let column = 0; column < width; column++) {
    let filled = 0;
    let addresses = 0;
    for (const row of data) {
      const cell = row[column];
      if (cell === undefined || cell.trim() === '') continue;
      filled++;
      if (bare(cell)) addresses++;
    }
    if (addresses * 2 > filled) return true;
  }
  return false;
}

export function delimiterEvidence(rows: readonly (readonly string[])[]): DelimiterEvidence {
  const widths = new Map<number, number>();
  for (const row of rows) widths.set(row.length, (widths.get(row.length) ?? 0) + 1);
  let width = 0;
  let most = 0;
  for (const [w, n] of widths) if (n > most || (n === most && w > width)) [width, most] = [w, n];
  return {
    addressColumn: hasAddressColumn(rows),
    names: rows[0]?.filter((cell) => roleOf(cell) !== undefined).length ?? 0,
    width,
    uniform: rows.length > 0 && most === rows.length,
    consistent: rows.length > 0 && most >= CONSISTENT_SHARE * rows.length,
  };
}

/** Whether `other` is the better reading than `given` (see the top of the file). */
function beats(other: DelimiterEvidence, given: DelimiterEvidence): boolean {
  if (!other.consistent || other.width < 2) return false;
  if (other.addressColumn !== given.addressColumn) return other.addressColumn;
  if (other.names !== given.names) return other.names > given.names;
  return given.uniform && given.width === 1 && other.uniform;
}

/**
 * The delimiter the start of the file seems to use instead of `delimiter`, or undefined.
 * `text` is the file's first stretch of text, `complete` when nothing follows it.
 */
export function suspectDelimiter(text: string, complete: boolean, delimiter: string): string | undefined {
  const given = delimiterEvidence(sampleRows(text, delimiter, complete));
  let best: { delimiter: string; evidence: DelimiterEvidence } | undefined;
  for (const candidate of CANDIDATES) {
    if (candidate === delimiter) continue;
    const evidence = delimiterEvidence(sampleRows(text, candidate, complete));
    if (!beats(evidence, given)) continue;
    if (!best || beats(evidence, best.evidence)) best = { delimiter: candidate, evidence };
  }
  return best?.delimiter;
}

export function wrongDelimiterReason(suspected: string, delimiter: string): string {
  return `The file seems to be delimited by ${delimiterName(suspected)}, not ${delimiterName(delimiter)}; set the delimiter parameter`;
}
