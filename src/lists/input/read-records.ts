/**
 * Records of a list file, streamed: bytes → `decodeText` → csv-parse (or csv-splitter.ts, which
 * reads the same records faster) → non-blank rows.
 *
 * Parsing is RFC 4180 with the list's delimiter and three allowances real files need: rows may
 * have different numbers of cells, a quote inside an unquoted cell is a literal character
 * (`John "Jack" Smith`), and any of LF, CRLF or CR ends a row. A row whose cells are all empty
 * or white space is blank: skipped, and not a record. A quote left open, or one record longer
 * than `maxRecordChars` (a file without line breaks), fails with the line it starts on.
 */
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { CsvError, parse } from 'csv-parse';
import { formatCount } from '../outcome.js';
import { CsvSplitter } from './csv-splitter.js';
import { InputError } from './input-error.js';
import { decodeText, type DetectedEncoding, type FallbackEncoding } from './text-decoder.js';

export interface ListRecord {
  /** 0-based index among data records: header and blank rows are not counted. */
  index: number;
  cells: string[];
}

export interface RowOptions {
  delimiter: string;
  /** The encoding when the file has no byte-order mark; default UTF-8. */
  encoding?: FallbackEncoding;
  /** Longest record in characters; default 1 MiB. */
  maxRecordChars?: number;
  onEncoding?: (detected: DetectedEncoding) => void;
  /**
   * Track where each record ends, so a malformed record is reported with the line it starts on
   * (default true). The hook doing so makes csv-parse build a context object per record, which
   * doubles the reading time: the first pass over an upload tracks lines, the later passes over a
   * file it already checked do not (and then report csv-parse's own line).
   */
  trackLines?: boolean;
  /**
   * Read with csv-splitter.ts instead of csv-parse: the same records in a fifth of the time, but
   * where csv-parse would name a problem's line (a quote never closed) or might refuse a long
   * record, it throws `CsvSplitError` and the caller reads the file with csv-parse instead.
   */
  splitter?: boolean;
}

export interface RecordOptions extends RowOptions {
  /** Skip the first non-blank row (the header). */
  skipHeader: boolean;
  /** The first record index to yield, to resume after a crash; earlier records are parsed, not yielded. */
  startAt?: number;
}

export const DEFAULT_MAX_RECORD_CHARS = 1024 * 1024;

function csvReason(err: CsvError, startLine: number, maxRecordChars: number): string {
  switch (err.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return `Malformed CSV: the quote opened on line ${startLine} is never closed`;
    case 'CSV_MAX_RECORD_SIZE':
      return `Malformed CSV: the record on line ${startLine} is longer than ${formatCount(maxRecordChars)} characters`;
    case 'CSV_INVALID_CLOSING_QUOTE':
      return `Malformed CSV on line ${String(err.lines)}: a closing quote must be followed by the delimiter or a line break`;
    default:
      return `Malformed CSV on line ${String(err.lines ?? startLine)}`;
  }
}

const isBlank = (cells: readonly string[]) => cells.every((cell) => cell.trim() === '');

/**
 * Every non-blank row, header included, in batches: each batch is what the parser holds at that
 * moment (about a read chunk's worth of rows), taken with synchronous `read()` calls. Iterating
 * the parser row by row costs a promise per row, and with the generators stacked on top of it
 * that was a third of the time of a later pass over a million-row file. Throws `InputError` for
 * problems of the file.
 */
export async function* readRowBatches(input: Readable, options: RowOptions): AsyncGenerator<string[][]> {
  const maxRecordChars = options.maxRecordChars ?? DEFAULT_MAX_RECORD_CHARS;
  if (options.splitter)
    return yield* splitRows(input, options.delimiter, maxRecordChars, decodeText(options.encoding ?? 'utf-8', options.onEncoding));
  // Where the last record ended, tracked inside the parser: it runs ahead of our reading, and a
  // failing record starts on the next line that is not an empty one.
  let lastLine = 0;
  let lastEmpty = 0;
  const common = {
    delimiter: options.delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    bom: true,
    max_record_size: maxRecordChars,
  };
  const parser =
    options.trackLines === false
      ? // csv-parse's own blank-record test is `isBlank`'s (every cell empty after trim()), so both modes see the same records.
        parse({ ...common, skip_records_with_empty_values: true })
      : parse({
          ...common,
          on_record: (record: string[], context) => {
            lastLine = context.lines;
            lastEmpty = context.empty_lines;
            return isBlank(record) ? null : record;
          },
        });
  pipeline(input, decodeText(options.encoding ?? 'utf-8', options.onEncoding), parser, () => {});
  try {
    yield* batchesOf<string[]>(parser);
  } catch (err) {
    if (err instanceof CsvError) {
      const emptySince = typeof err.empty_lines === 'number' ? err.empty_lines - lastEmpty : 0;
      throw new InputError('csv', csvReason(err, lastLine + 1 + emptySince, maxRecordChars));
    }
    throw err;
  } finally {
    parser.destroy();
  }
}

/** `readRowBatches` through csv-splitter.ts: one batch per piece of text read. */
async function* splitRows(input: Readable, delimiter: string, maxRecordChars: number, text: Transform): AsyncGenerator<string[][]> {
  pipeline(input, text, () => {});
  const splitter = new CsvSplitter(delimiter, maxRecordChars);
  const utf8 = new StringDecoder('utf8');
  try {
    for await (const bytes of text as AsyncIterable<Buffer>) {
      const rows = splitter.write(utf8.write(bytes), false);
      if (rows.length > 0) yield rows;
    }
    const rows = splitter.write(utf8.end(), true);
    if (rows.length > 0) yield rows;
  } finally {
    text.destroy();
  }
}

/** An object-mode stream's items, in the batches it has buffered; one wait per batch. */
async function* batchesOf<T>(stream: Readable): AsyncGenerator<T[]> {
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const onReadable = () => wake?.();
  const onEnd = () => {
    ended = true;
    wake?.();
  };
  const onError = (err: Error) => {
    failure ??= err;
    wake?.();
  };
  stream.on('readable', onReadable).on('end', onEnd).on('error', onError).on('close', onReadable);
  try {
    for (;;) {
      const batch: T[] = [];
      let item: T | null;
      while ((item = stream.read() as T | null) !== null) batch.push(item);
      // Back to reading after a batch: what came while the reader held it raised no event we saw.
      if (batch.length > 0) {
        yield batch;
        continue;
      }
      if (failure) throw failure;
      if (ended || stream.readableEnded) return;
      // An error after `destroy()` can come without 'end' or a last 'readable'.
      if (stream.destroyed) throw stream.errored ?? new Error('the stream was destroyed');
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    stream.off('readable', onReadable).off('end', onEnd).off('error', onError).off('close', onReadable);
  }
}

/** Every non-blank row, header included. Throws `InputError` for problems of the file. */
export async function* readRows(input: Readable, options: RowOptions): AsyncGenerator<string[]> {
  for await (const batch of readRowBatches(input, options)) yield* batch;
}

/** Data records with their indexes, in batches (see `readRowBatches`). Throws `InputError` for problems of the file. */
export async function* readRecordBatches(input: Readable, options: RecordOptions): AsyncGenerator<ListRecord[]> {
  const startAt = options.startAt ?? 0;
  let index = options.skipHeader ? -1 : 0;
  for await (const rows of readRowBatches(input, options)) {
    const records: ListRecord[] = [];
    for (const cells of rows) {
      if (index >= startAt) records.push({ index, cells });
      index++;
    }
    if (records.length > 0) yield records;
  }
}

/** Data records with their indexes. Throws `InputError` for problems of the file. */
export async function* readRecords(input: Readable, options: RecordOptions): AsyncGenerator<ListRecord> {
  for await (const batch of readRecordBatches(input, options)) yield* batch;
}
