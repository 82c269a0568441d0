/**
 * Cells → delimited text, exactly as csv-stringify 6 writes them with its defaults (which is
 * what the results file was first written with, and what csv-text.test.ts checks against): a
 * cell is quoted when it holds the delimiter, a quote, CR or LF, and its quotes are doubled;
 * an empty cell stays empty. csv-stringify's per-cell options and casting cost about 2 µs a row;
 * a million-row results file spent as long in it as in everything else of the file put together.
 * Values are written as given: which cells a spreadsheet must not run as formulas is the results
 * file's decision (results-file.ts, formula-guard.ts).
 */

export interface CsvText {
  /** One cell, quoted when it needs to be. */
  cell(value: string): string;
  /** Cells joined by the delimiter, without a line end. */
  join(cells: readonly string[]): string;
}

export function csvText(delimiter: string): CsvText {
  if (delimiter.length === 0) throw new RangeError('the delimiter must not be empty');
  const special = new RegExp(`["\\r\\n]|${delimiter.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')}`);
  // csv-stringify also quotes a cell ending in the start of a longer delimiter (it would fuse
  // with the delimiter written after it); one character (one UTF-16 unit) never does.
  const fuses = delimiter.length > 1 ? (value: string) => (value + delimiter).indexOf(delimiter) < value.length : () => false;
  const cell = (value: string): string => {
    if (value === '') return '';
    if (!special.test(value) && !fuses(value)) return value;
    return `"${value.includes('"') ? value.replaceAll('"', '""') : value}"`;
  };
  return {
    cell,
    join(cells) {
      let line = cells.length > 0 ? cell(cells[0]!) : '';
      for (let i = 1; i < cells.length; i++) line += delimiter + cell(cells[i]!);
      return line;
    },
  };
}
