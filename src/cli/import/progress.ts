/**
 * An import's run from the first line to its final status (listmonk's importer keeps an explicit
 * status the same way): records read, checked and committed in batches, rejected lines kept for
 * the report (the first 1,000), and a progress bar when stdout is a terminal.
 */
import { open, stat } from 'node:fs/promises';
import cliProgress from 'cli-progress';
import { print } from '../output.js';
import { readImportFile, type ImportFormat } from './record-reader.js';

/** Rows a batch commits: each batch is one storage call, one transaction. */
export const BATCH_ROWS = 10_000;
/** Rejected lines printed; the rest are only counted. */
export const MAX_REPORTED = 1_000;

export type ImportStatus = 'importing' | 'finished' | 'failed';

export interface ImportRun<T> {
  label: string;
  file: string;
  format: ImportFormat;
  /** Problems every row shares (a bad CSV header), listed before each row's own. */
  rowProblems?: string[];
  /** A value (loaded, with warnings about what of the row was skipped) or the row's problems (rejected). */
  check(record: Record<string, unknown>): { value: T; warnings?: string[] } | { problems: string[] };
  commit(batch: T[]): Promise<void>;
  /** Where the bar is drawn; stdout by default, and only when it is a terminal. */
  stream?: NodeJS.WriteStream;
}

export interface ImportOutcome {
  status: Exclude<ImportStatus, 'importing'>;
  loaded: number;
  rejected: number;
  /** Rows of the batches committed before a failure (all loaded rows when finished). */
  committed: number;
  /** `  line L: reason`, the first MAX_REPORTED of them. */
  rejectedLines: string[];
  /** Parts of loaded rows that were skipped (a person's impossible address): counted apart from rejected rows. */
  warnings: number;
  /** `  line L: warning: reason`, the first MAX_REPORTED of them. */
  warningLines: string[];
  error?: unknown;
}

export async function runImport<T>(run: ImportRun<T>): Promise<ImportOutcome> {
  // A missing file is the operator's typo, not a failed import: let it reach the CLI's message.
  await stat(run.file);
  const bar = await progressBar(run.label, run.file, run.stream ?? process.stdout);
  const outcome: ImportOutcome = {
    status: 'failed',
    loaded: 0,
    rejected: 0,
    committed: 0,
    rejectedLines: [],
    warnings: 0,
    warningLines: [],
  };
  let status: ImportStatus = 'importing';
  let batch: T[] = [];
  const flush = async () => {
    await run.commit(batch);
    outcome.committed += batch.length;
    batch = [];
  };
  try {
    for await (const item of readImportFile(run.file, run.format)) {
      bar.update(item.line, outcome.loaded);
      const checked = 'problem' in item ? { problems: [item.problem] } : run.check(item.record);
      if ('problems' in checked || run.rowProblems?.length) {
        const problems = [...(run.rowProblems ?? []), ...('problems' in checked ? checked.problems : [])];
        outcome.rejected += 1;
        if (outcome.rejectedLines.length < MAX_REPORTED) outcome.rejectedLines.push(`  line ${item.line}: ${problems.join('; ')}`);
        continue;
      }
      batch.push(checked.value);
      outcome.loaded += 1;
      for (const warning of checked.warnings ?? []) {
        outcome.warnings += 1;
        if (outcome.warningLines.length < MAX_REPORTED) outcome.warningLines.push(`  line ${item.line}: warning: ${warning}`);
      }
      if (batch.length >= BATCH_ROWS) await flush();
    }
    if (batch.length > 0) await flush();
    status = 'finished';
  } catch (error) {
    // Batches already committed stay: a re-run updates them rather than duplicating.
    status = 'failed';
    outcome.error = error;
  } finally {
    bar.stop();
  }
  outcome.status = status;
  return outcome;
}

/** The report lines after the summary: rejected lines, then how many were left out; the same for warnings. */
export function printRejections(outcome: ImportOutcome): void {
  for (const line of outcome.rejectedLines) print(line);
  const unshown = outcome.rejected - outcome.rejectedLines.length;
  if (unshown > 0) print(`  … and ${unshown} more rejected lines (only the first ${MAX_REPORTED} are listed)`);
  for (const line of outcome.warningLines) print(line);
  const unshownWarnings = outcome.warnings - outcome.warningLines.length;
  if (unshownWarnings > 0) print(`  … and ${unshownWarnings} more warnings (only the first ${MAX_REPORTED} are listed)`);
}

/** `, N warnings` for the summary line, or nothing when there were none. */
export function warningCount(outcome: ImportOutcome): string {
  if (outcome.warnings === 0) return '';
  return `, ${outcome.warnings} warning${outcome.warnings === 1 ? '' : 's'} (addresses skipped)`;
}

/** Prints why an import stopped; what the committed batches loaded stays loaded. */
export function printFailure(label: string, outcome: ImportOutcome): void {
  const reason = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
  print(`${label} import failed after ${outcome.committed} rows were committed: ${reason}`);
}

export interface ProgressBar {
  update(line: number, rows: number): void;
  stop(): void;
}

const NO_BAR: ProgressBar = { update() {}, stop() {} };
const SAMPLE_BYTES = 64 * 1024;
const UPDATE_EVERY_LINES = 1_000;

/**
 * A bar of bytes read against the file's size. The reader reports line numbers, not byte
 * offsets, so bytes read are estimated from the average line length of the file's first 64 KiB
 * (exact for files that small, close for generated or exported data); the bar ends full.
 */
export async function progressBar(label: string, file: string, stream: NodeJS.WriteStream): Promise<ProgressBar> {
  if (stream.isTTY !== true) return NO_BAR;
  const size = (await stat(file)).size;
  if (size === 0) return NO_BAR;
  const bytesPerLine = await averageLineBytes(file, size);
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `${label} [{bar}] {percentage}% | {rows} rows | ETA {eta_formatted}`,
      clearOnComplete: true,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(size, 0, { rows: 0 });
  let lastLine = 0;
  return {
    update(line, rows) {
      if (line - lastLine < UPDATE_EVERY_LINES) return;
      lastLine = line;
      bar.update(Math.min(size, Math.round(line * bytesPerLine)), { rows });
    },
    stop() {
      bar.update(size);
      bar.stop();
    },
  };
}

async function averageLineBytes(file: string, size: number): Promise<number> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(Math.min(SAMPLE_BYTES, size)), 0, Math.min(SAMPLE_BYTES, size), 0);
    let lines = 0;
    for (let i = 0; i < bytesRead; i++) if (buffer[i] === 0x0a) lines += 1;
    return lines === 0 ? size : bytesRead / lines;
  } finally {
    await handle.close();
  }
}
