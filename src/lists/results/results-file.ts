/**
 * Writes the results file: a ZIP holding one delimited text file — the original header and
 * rows, cells exactly as parsed, then the appended columns — streamed through yazl to disk, so a
 * million rows never sit in memory. Rows are stringified in batches (csv-stringify's sync API)
 * and written in large pieces: zlib deflates each write on the thread pool, and one write per
 * row made a million-row file take half a minute, almost all of it waiting. Rows are padded with empty cells
 * to the original column count, so appended columns line up even where the input's rows were
 * ragged. The zip is written beside its final path and renamed into place when complete: a
 * crash never leaves a truncated results file that looks finished.
 *
 * Output is UTF-8 (with a byte-order mark when `bom`: see `ListLayout.outputBom`), LF line ends,
 * and quotes only where needed (a cell holding the delimiter, a quote or a line break).
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify/sync';
import yazl from 'yazl';

export interface ResultRow {
  /** The record's original cells. */
  cells: readonly string[];
  /** Values of the appended columns, in `appendedHeader` order. */
  appended: readonly string[];
}

export interface ResultsFileOptions {
  zipPath: string;
  /** The file name inside the zip (`resultsFileName`). */
  innerName: string;
  delimiter: string;
  /** Names of the original columns (`originalHeader`). */
  originalHeader: readonly string[];
  appendedHeader: readonly string[];
  bom?: boolean;
}

export interface WrittenResults {
  zipPath: string;
  sizeBytes: number;
  rows: number;
}

const BATCH_CHARS = 256 * 1024;

function pad(cells: readonly string[], width: number): string[] {
  const out = [...cells];
  while (out.length < width) out.push('');
  return out;
}

/** Rows must come in record order. Throws on I/O failure, leaving no file behind. */
export async function writeResultsFile(
  options: ResultsFileOptions,
  rows: AsyncIterable<ResultRow> | Iterable<ResultRow>,
): Promise<WrittenResults> {
  const partial = `${options.zipPath}.partial`;
  const csv = new PassThrough();
  const zip = new yazl.ZipFile();
  zip.addReadStream(csv, options.innerName);
  zip.end();
  const out = createWriteStream(partial);
  const written = pipeline(zip.outputStream as Readable, out);
  // A failure downstream (disk full) is reported through `written`; it must also end any wait
  // for 'drain', and the stream's own 'error' must not go unheard.
  let failure: Error | undefined;
  written.catch((err: Error) => {
    failure = err;
    csv.destroy(err);
  });
  csv.on('error', () => {});
  zip.on('error', (err: Error) => (zip.outputStream as Readable).destroy(err));

  let batch: string[][] = [];
  let batchChars = 0;
  let first = true;
  const flush = async () => {
    const text = stringify(batch, { delimiter: options.delimiter, bom: first && (options.bom ?? false) });
    first = false;
    batch = [];
    batchChars = 0;
    if (failure) throw failure;
    if (!csv.write(text)) await Promise.race([once(csv, 'drain'), written]);
  };
  const put = async (record: string[]) => {
    batch.push(record);
    for (const cell of record) batchChars += cell.length + 1;
    if (batchChars >= BATCH_CHARS) await flush();
  };
  const width = options.originalHeader.length;
  const extra = options.appendedHeader.length;
  let count = 0;
  try {
    await put([...options.originalHeader, ...options.appendedHeader]);
    for await (const row of rows) {
      await put([...pad(row.cells, width), ...pad(row.appended, extra)]);
      count++;
    }
    await flush();
    csv.end();
    await written;
    await rename(partial, options.zipPath);
  } catch (err) {
    csv.destroy();
    (zip.outputStream as Readable).destroy();
    out.destroy();
    await written.catch(() => {});
    await rm(partial, { force: true });
    throw err;
  }
  const { size } = await stat(options.zipPath);
  return { zipPath: options.zipPath, sizeBytes: size, rows: count };
}
