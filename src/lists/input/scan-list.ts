/**
 * The first pass over a list: counts its records, keeps the header and the first rows for
 * column detection, and measures the widest row. Reads the whole file (so every parse
 * problem, zip-bomb cap and the record limit is found here, before any service runs) while
 * holding only the sample in memory.
 */
import type { Readable } from 'node:stream';
import { fail, formatCount, ok, type Fail, type Ok } from '../outcome.js';
import { decideHeader } from './header-row.js';
import { InputError, type InputProblem } from './input-error.js';
import { readRowBatches, type RowOptions } from './read-records.js';
import type { DetectedEncoding } from './text-decoder.js';

export const MAX_LIST_RECORDS = 1_000_000;
export const DEFAULT_SAMPLE_ROWS = 100;

export interface ScanOptions extends Omit<RowOptions, 'onEncoding'> {
  /** The `header` parameter; the first row may overrule it (see header-row). */
  header: boolean;
  /** Default 1,000,000 (api-reference "Limits"). */
  maxRecords?: number;
  /** Data rows kept for detection; default 100. */
  sampleRows?: number;
}

export interface ListScan {
  header?: string[];
  /** The first row overruled the `header` parameter. */
  headerOverruled: boolean;
  /** Non-blank data records, header excluded. */
  records: number;
  /** Cells in the widest row, header included. */
  columnCount: number;
  /** The first data rows. */
  sample: string[][];
  detected: DetectedEncoding;
}

export type ScanFail = Fail & { problem?: InputProblem };

export const tooManyRecords = (max: number) => `The list has more than ${formatCount(max)} records`;
export const NO_RECORDS = 'The list has no records';

export async function scanList(input: Readable, options: ScanOptions): Promise<Ok<ListScan> | ScanFail> {
  const maxRecords = options.maxRecords ?? MAX_LIST_RECORDS;
  const sampleRows = options.sampleRows ?? DEFAULT_SAMPLE_ROWS;
  let detected: DetectedEncoding = { encoding: options.encoding ?? 'utf-8', bom: false };
  let first = true;
  let header: string[] | undefined;
  let headerOverruled = false;
  let records = 0;
  let columnCount = 0;
  const sample: string[][] = [];
  try {
    for await (const batch of readRowBatches(input, { ...options, onEncoding: (d) => (detected = d) })) {
      for (const cells of batch) {
        if (cells.length > columnCount) columnCount = cells.length;
        if (first) {
          first = false;
          const decision = decideHeader(cells, options.header);
          headerOverruled = decision.overruled;
          if (decision.header) {
            header = cells;
            continue;
          }
        }
        if (++records > maxRecords) return fail(tooManyRecords(maxRecords));
        if (sample.length < sampleRows) sample.push(cells);
      }
    }
  } catch (err) {
    if (err instanceof InputError) return { ...fail(err.reason), problem: err.problem };
    throw err;
  }
  if (records === 0) return fail(NO_RECORDS);
  return ok({ header, headerOverruled, records, columnCount, sample, detected });
}
