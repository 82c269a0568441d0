/**
 * Everything the pipeline needs to know about an uploaded list before any service runs, from
 * one pass over the file (and a second look at its first 64 KiB, for the delimiter check): its
 * container, encoding, delimiter, header, record count, columns and email column. A failure's reason ends the list in state `Invalid`. `listRecords` then streams
 * the records again, as often as needed (services, resume after a crash), with exactly the same
 * reading.
 *
 * The pass reads with csv-splitter.ts. Where that cannot stand in for csv-parse (a quote never
 * closed, a record near the size limit) the file is read again with csv-parse, and when that
 * finds it malformed, once more tracking lines for the message (tracking doubles csv-parse's
 * time, so only a bad file pays for it). A file that is not UTF-8 is read again as Windows-1252.
 */
import { fail, ok, type Outcome } from '../outcome.js';
import { emailColumnMismatch, pickEmailColumn } from './email-column.js';
import { mapHeader } from './header-map.js';
import { CsvSplitError } from './csv-splitter.js';
import { InputError } from './input-error.js';
import { resolveDelimiter, type ListFormat, type TextExtension } from './list-name.js';
import { openInput } from './open-input.js';
import { readRecordBatches, type ListRecord } from './read-records.js';
import { scanList, type ListScan } from './scan-list.js';
import { suspectDelimiter, wrongDelimiterReason } from './delimiter-check.js';
import { readTextHead } from './text-head.js';
import type { RoleColumns } from './service-inputs.js';
import type { DetectedEncoding, FallbackEncoding } from './text-decoder.js';
import type { ZipLimits } from './zip-input.js';

export interface PrepareOptions {
  path: string;
  format: ListFormat;
  /** The `delimiter` parameter, when given. */
  delimiter?: string;
  /** The `header` parameter. */
  header: boolean;
  /** The `email_column` parameter (1-based), when given. */
  emailColumn?: number;
  zipLimits?: ZipLimits;
  maxRecords?: number;
  maxRecordChars?: number;
  sampleRows?: number;
}

export interface ListLayout {
  extension: TextExtension;
  zipped: boolean;
  delimiter: string;
  /** Pass back to `listRecords`; a byte-order mark overrides it there as it did here. */
  encoding: FallbackEncoding;
  detected: DetectedEncoding;
  header?: string[];
  headerOverruled: boolean;
  records: number;
  columnCount: number;
  /** 0-based; undefined when the file has no email column (name+postal lists). */
  emailColumn?: number;
  /** Columns by role: the header's names, with `email` set to the chosen column. */
  roles: RoleColumns;
  /**
   * The `email_column` parameter names a column in which no sampled value looks like an
   * address: the reason the list is `Invalid` if a service reads addresses (`planServices`).
   */
  emailColumnMismatch?: string;
  /** Write a UTF-8 byte-order mark into the results, so spreadsheet programs read it as UTF-8. */
  outputBom: boolean;
  /**
   * The file was read with csv-splitter.ts (csv-parse otherwise), so later passes may be too.
   * Absent from plans made before it existed: those are read with csv-parse.
   */
  splitter?: boolean;
}

/** How a pass reads the text: csv-splitter.ts, csv-parse, or csv-parse tracking lines. */
type Reading = 'splitter' | 'csv-parse' | 'tracking';

async function scanWith(options: PrepareOptions, encoding: FallbackEncoding, reading: Reading = 'splitter') {
  const opened = await openInput(options.path, options.format, options.zipLimits);
  if (!opened.ok) return { opened, scan: undefined };
  const delimiter = resolveDelimiter(options.delimiter, opened.value.extension);
  let scan: Awaited<ReturnType<typeof scanList>>;
  try {
    scan = await scanList(opened.value.stream, {
      delimiter,
      encoding,
      header: options.header,
      maxRecords: options.maxRecords,
      maxRecordChars: options.maxRecordChars,
      sampleRows: options.sampleRows,
      splitter: reading === 'splitter',
      trackLines: reading === 'tracking',
    });
  } catch (err) {
    if (!(err instanceof CsvSplitError)) throw err;
    // A quote never closed is a malformed file whose message names a line: straight to tracking.
    return scanWith(options, encoding, err.reason === 'unclosed-quote' ? 'tracking' : 'csv-parse');
  }
  if (reading === 'csv-parse' && !scan.ok && scan.problem === 'csv') return scanWith(options, encoding, 'tracking');
  return { opened, scan, delimiter, splitter: reading === 'splitter' };
}

function layoutOf(scan: ListScan, emailColumn: number | undefined): RoleColumns {
  const roles: RoleColumns = scan.header ? { ...mapHeader(scan.header).columns } : {};
  if (emailColumn === undefined) delete roles.email;
  else roles.email = emailColumn;
  return roles;
}

export async function prepareList(options: PrepareOptions): Promise<Outcome<ListLayout>> {
  let encoding: FallbackEncoding = 'utf-8';
  let attempt = await scanWith(options, encoding);
  if (attempt.scan && !attempt.scan.ok && attempt.scan.problem === 'not-utf8') {
    encoding = 'windows-1252';
    attempt = await scanWith(options, encoding);
  }
  const { opened, scan, delimiter, splitter } = attempt;
  if (!opened.ok) return opened;
  if (!scan!.ok) return fail(scan!.reason);
  const found = scan!.value;

  // A delimiter the caller gave is theirs to choose; the extension's default is only a guess.
  if (options.delimiter === undefined) {
    const head = await readTextHead(options.path, options.format, encoding, { zipLimits: options.zipLimits });
    const suspected = suspectDelimiter(head.text, head.complete, delimiter!);
    if (suspected) return fail(wrongDelimiterReason(suspected, delimiter!));
  }

  const columns = { header: found.header, sample: found.sample, columnCount: found.columnCount, emailColumn: options.emailColumn };
  const column = pickEmailColumn(columns);
  if (!column.ok) return column;
  const mismatch = emailColumnMismatch(columns);

  return ok({
    extension: opened.value.extension,
    zipped: opened.value.zipped,
    delimiter: delimiter!,
    encoding,
    detected: found.detected,
    header: found.header,
    headerOverruled: found.headerOverruled,
    records: found.records,
    columnCount: found.columnCount,
    emailColumn: column.value,
    roles: layoutOf(found, column.value),
    ...(mismatch !== undefined ? { emailColumnMismatch: mismatch } : {}),
    outputBom: found.detected.bom || found.detected.encoding !== 'utf-8',
    splitter: splitter === true,
  });
}

/**
 * The list's records again, read as `prepareList` read them, in batches of the size the parser
 * hands them over (see `readRowBatches`). The file was fully checked then, so a failure here
 * (the upload changed or vanished) is thrown: it is our failure, not the caller's.
 */
export async function* listRecordBatches(
  path: string,
  format: ListFormat,
  layout: ListLayout,
  options: { startAt?: number; zipLimits?: ZipLimits; maxRecordChars?: number } = {},
): AsyncGenerator<ListRecord[]> {
  const opened = await openInput(path, format, options.zipLimits);
  if (!opened.ok) throw new InputError('zip', opened.reason);
  yield* readRecordBatches(opened.value.stream, {
    delimiter: layout.delimiter,
    encoding: layout.encoding,
    maxRecordChars: options.maxRecordChars,
    skipHeader: layout.header !== undefined,
    startAt: options.startAt,
    trackLines: false,
    splitter: layout.splitter === true,
  });
}

/** `listRecordBatches` one record at a time. */
export async function* listRecords(
  path: string,
  format: ListFormat,
  layout: ListLayout,
  options: { startAt?: number; zipLimits?: ZipLimits; maxRecordChars?: number } = {},
): AsyncGenerator<ListRecord> {
  for await (const batch of listRecordBatches(path, format, layout, options)) for (const record of batch) yield record;
}
