/**
 * Writes the results file: a ZIP holding one delimited text file — the original header and
 * rows, cells exactly as parsed, then the appended columns, those from our own data with
 * formulas neutralised (formula-guard.ts) — streamed to disk (zipped-text.ts: written beside its
 * final path and renamed into place when complete), so a million rows never sit in memory. Rows
 * are written in large pieces. Rows are padded with empty cells to the original column count, so
 * appended columns line up even where the input's rows were ragged.
 *
 * Output is UTF-8 (with a byte-order mark when `bom`: see `ListLayout.outputBom`), LF line ends,
 * and quotes only where needed (a cell holding the delimiter, a quote or a line break:
 * csv-text.ts, byte for byte what csv-stringify wrote).
 */
import { csvText } from './csv-text.js';
import { neutraliseFormula } from './formula-guard.js';
import { openZippedText } from './zipped-text.js';

/** A record's original cells, or the text they are written as (`csvText(delimiter).join(padCells(cells, width))`). */
export type ResultRow = ({ cells: readonly string[] } | { text: string }) & {
  /** Values of the appended columns, in `appendedHeader` order. */
  appended: readonly string[];
};

export interface ResultsFileOptions {
  zipPath: string;
  /** The file name inside the zip (`resultsFileName`). */
  innerName: string;
  delimiter: string;
  /** Names of the original columns (`originalHeader`). */
  originalHeader: readonly string[];
  appendedHeader: readonly string[];
  /**
   * The appended columns (by `appendedHeader` position) written exactly as they are, like the
   * original ones: the addresses we add. The others are our data and go through the formula
   * guard (formula-guard.ts).
   */
  appendedAsIs?: readonly boolean[];
  bom?: boolean;
}

export interface WrittenResults {
  zipPath: string;
  sizeBytes: number;
  rows: number;
}

const BATCH_CHARS = 256 * 1024;

/** The cells, with empty ones added up to `width`. */
export function padCells(cells: readonly string[], width: number): readonly string[] {
  if (cells.length >= width) return cells;
  const out = [...cells];
  while (out.length < width) out.push('');
  return out;
}

/**
 * Rows must come in record order, one by one or in arrays (a chunk's worth at a time saves a
 * wait per row). Throws on I/O failure, leaving no file behind.
 */
export async function writeResultsFile(
  options: ResultsFileOptions,
  rows: AsyncIterable<ResultRow | readonly ResultRow[]> | Iterable<ResultRow | readonly ResultRow[]>,
): Promise<WrittenResults> {
  const file = openZippedText(options.zipPath, options.innerName);
  const text = csvText(options.delimiter);
  const { delimiter } = options;
  const width = options.originalHeader.length;
  const extra = options.appendedHeader.length;
  let batch = options.bom ? '\uFEFF' : '';
  const flush = async () => {
    const piece = batch;
    batch = '';
    await file.write(piece);
  };
  const asIs = options.appendedAsIs ?? [];
  const appendedText = (appended: readonly string[]) => {
    let out = '';
    for (let i = 0, n = Math.max(extra, appended.length); i < n; i++) {
      const value = appended[i] ?? '';
      out += (i === 0 ? '' : delimiter) + text.cell(asIs[i] === true ? value : neutraliseFormula(value));
    }
    return out;
  };
  const line = (original: string, appended: readonly string[]) => {
    if (extra === 0) return `${original}\n`;
    return `${original}${delimiter}${appendedText(appended)}\n`;
  };
  let count = 0;
  try {
    batch += line(text.join(options.originalHeader), options.appendedHeader);
    for await (const item of rows) {
      for (const row of Array.isArray(item) ? (item as readonly ResultRow[]) : [item as ResultRow]) {
        batch += line('text' in row ? row.text : text.join(padCells(row.cells, width)), row.appended);
        count++;
        if (batch.length >= BATCH_CHARS) await flush();
      }
    }
    await flush();
    return { zipPath: options.zipPath, sizeBytes: await file.finish(), rows: count };
  } catch (err) {
    await file.abort();
    throw err;
  }
}
