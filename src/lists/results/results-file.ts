/**
 * Writes the results file: a ZIP holding one delimited text file — the original header and
 * rows, cells exactly as parsed, then the appended columns, those from our own data with
 * formulas neutralised (formula-guard.ts) — streamed to disk (zip-writer.ts), so
 * a million rows never sit in memory. Rows are written in large pieces: zlib deflates each write
 * on the thread pool, and one write per row made a million-row file take half a minute, almost
 * all of it waiting. Rows are padded with empty cells to the original column count, so appended
 * columns line up even where the input's rows were ragged. The zip is written beside its final
 * path and renamed into place when complete: a crash never leaves a truncated results file that
 * looks finished.
 *
 * Output is UTF-8 (with a byte-order mark when `bom`: see `ListLayout.outputBom`), LF line ends,
 * and quotes only where needed (a cell holding the delimiter, a quote or a line break:
 * csv-text.ts, byte for byte what csv-stringify wrote). Deflate runs at level
 * `RESULTS_DEFLATE_LEVEL`: on a million rows level 6 (zlib's default) took 0.8 s of a core for a
 * file 13 % smaller than level 3's 0.4 s.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { csvText } from './csv-text.js';
import { neutraliseFormula } from './formula-guard.js';
import { zipOneFile } from './zip-writer.js';

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
export const RESULTS_DEFLATE_LEVEL = 3;

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
  const partial = `${options.zipPath}.partial`;
  const zip = zipOneFile(options.innerName, { level: RESULTS_DEFLATE_LEVEL });
  const out = createWriteStream(partial, { mode: 0o600 }); // personal data: owner-only
  const written = pipeline(zip.output, out);
  // A failure downstream (disk full) is reported through `written`; it must also end any wait
  // for 'drain'.
  let failure: Error | undefined;
  written.catch((err: Error) => {
    failure = err;
    zip.destroy(err);
  });

  const text = csvText(options.delimiter);
  const { delimiter } = options;
  const width = options.originalHeader.length;
  const extra = options.appendedHeader.length;
  let batch = options.bom ? '\uFEFF' : '';
  const flush = async () => {
    const piece = Buffer.from(batch, 'utf8');
    batch = '';
    if (failure) throw failure;
    if (!zip.write(piece)) await Promise.race([once(zip.input, 'drain'), written]);
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
    zip.end();
    await written;
    await rename(partial, options.zipPath);
  } catch (err) {
    zip.destroy();
    out.destroy();
    await written.catch(() => {});
    await rm(partial, { force: true });
    throw err;
  }
  const { size } = await stat(options.zipPath);
  return { zipPath: options.zipPath, sizeBytes: size, rows: count };
}
