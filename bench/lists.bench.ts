/**
 * A list of 1,000,000 rows (MAILSURE_BENCH_LIST_ROWS to change) at depth `domain` against the
 * test world, through the real `mailsure serve` in a child process: upload → status `Results`
 * (polled every 250 ms) → results zip downloaded, against streaming the same file through
 * csv-parse → csv-stringify (six columns appended) → a file in this process. Also the server's
 * peak resident memory over the whole run (VmHWM, Linux), and where it stood idle and by the end
 * of each status.
 *
 * For work on the pipeline: MAILSURE_BENCH_CPU_PROF=<dir> runs the server with --cpu-prof into
 * that directory (and stops it gracefully, so the profile is written); MAILSURE_BENCH_KEEP_RESULTS=
 * <file> keeps a copy of the results zip, to compare two versions' output.
 */
import { copyFileSync, createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';
import { startTestWorld } from '../test/helpers/world/index.js';
import { writeListCsv } from '../test/integration/list-csv.js';
import { createKeyByCli, ListClient, peakRss, readZipEntry, startMailsure } from '../test/integration/list-server.js';
import { pinServer } from './support/pin-server.js';
import type { BenchResult } from './types.js';

const ROWS = Number(process.env.MAILSURE_BENCH_LIST_ROWS ?? 1_000_000);
const POLL_MS = 250;
const RSS_GOAL = 512 * 1024 * 1024;
const MB = 1024 * 1024;
const PROFILE_DIR = process.env.MAILSURE_BENCH_CPU_PROF;
const KEEP_RESULTS = process.env.MAILSURE_BENCH_KEEP_RESULTS;

/**
 * csv-parse → csv-stringify over the file, with the validation columns' worth of cells appended
 * (in a transform: csv-parse's `on_record` builds an info object per record and would double the
 * baseline's parsing time).
 */
async function baseline(input: string, output: string): Promise<number> {
  const appended = ['unknown', '20', 'biz', '', '', ''];
  const started = performance.now();
  await pipeline(
    createReadStream(input),
    parse({ relax_column_count: true }),
    new Transform({ objectMode: true, transform: (record: string[], _encoding, done) => done(null, [...record, ...appended]) }),
    stringify(),
    createWriteStream(output),
  );
  return performance.now() - started;
}

async function countRecords(zipPath: string): Promise<number> {
  let records = 0;
  await readZipEntry(zipPath, (stream) =>
    pipeline(stream, parse({ relax_column_count: true }), async (rows: AsyncIterable<unknown>) => {
      for await (const _ of rows) records++;
    }),
  );
  return records - 1;
}

export default async function run(): Promise<BenchResult[]> {
  const world = await startTestWorld();
  const root = mkdtempSync(join(tmpdir(), 'mailsure-bench-lists-'));
  try {
    const file = await writeListCsv(join(root, 'list.csv'), ROWS);
    const options = {
      dataDir: join(root, 'data'),
      env: world.env,
      wrap: pinServer(),
      ...(PROFILE_DIR ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] } : {}),
    };
    const key = await createKeyByCli(options, 'bench', 'verification,lists');
    // Baseline before and after the list, best of the two: load from elsewhere hits both sides alike.
    const baselinePath = join(root, 'baseline.csv');
    const before = await baseline(file.path, baselinePath);
    const server = await startMailsure(options);
    const client = new ListClient(server.port, key);
    const zipPath = join(root, 'results.zip');
    const at: Record<string, number> = {};
    let rss: number | undefined;
    let idleRss: number | undefined;
    /** The server's peak memory by the end of each status seen, to tell which phase sets it. */
    const peakBy = new Map<string, number>();
    let oursMs: number;
    try {
      idleRss = await peakRss(server.pid);
      const started = performance.now();
      const listId = await client.submit(file.path);
      at.uploaded = performance.now() - started;
      for (;;) {
        const body = await client.status(listId);
        const now = performance.now() - started;
        const peak = await peakRss(server.pid);
        if (peak !== undefined) peakBy.set(body.status, peak);
        if (body.services.email_validation && at.parsed === undefined) at.parsed = now;
        if (body.status === 'Processing' && at.processing === undefined) at.processing = now;
        if (body.status === 'Results') break;
        if (body.status !== 'Pending' && body.status !== 'Processed' && body.status !== 'Processing')
          throw new Error(`the list ended ${body.status}: ${body.error ?? ''}`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      at.results = performance.now() - started;
      await client.downloadResults(listId, zipPath);
      oursMs = performance.now() - started;
      rss = await peakRss(server.pid);
    } finally {
      client.close();
      await (PROFILE_DIR ? server.stop() : server.kill());
    }
    if (KEEP_RESULTS) copyFileSync(zipPath, KEEP_RESULTS);
    const written = await countRecords(zipPath);
    if (written !== ROWS) throw new Error(`the results hold ${written} records, not ${ROWS}`);

    const baselineMs = Math.min(before, await baseline(file.path, baselinePath));
    const rows = ROWS.toLocaleString('en-US');
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const phases =
      `upload ${s(at.uploaded!)}, parse until ${s(at.parsed ?? at.processing!)}, services until ${s(at.processing ?? at.results!)}, ` +
      `results file until ${s(at.results!)}, download until ${s(oursMs)}`;
    process.stdout.write(
      `  lists: ${rows} rows (${Math.round(file.bytes / MB)} MB): ${phases}; peak RSS ${rss === undefined ? 'n/a' : `${Math.round(rss / MB)} MB`}` +
        ` (idle ${idleRss === undefined ? 'n/a' : Math.round(idleRss / MB)}; by the end of ${[...peakBy].map(([status, peak]) => `${status} ${Math.round(peak / MB)}`).join(', ')} MB)\n`,
    );
    const ratio = oursMs / baselineMs;
    const results: BenchResult[] = [
      {
        title: `list of ${rows} rows at depth domain (test world), upload → Results → download, vs csv-parse + csv-stringify of the same file`,
        ours: { label: 'mailsure list', value: oursMs / 1000, unit: 's' },
        baseline: { label: 'csv-parse → csv-stringify (+6 columns) → file', value: baselineMs / 1000, unit: 's' },
        ratio,
        goal: '≤ 5',
        met: ratio <= 5,
        notes:
          `real \`mailsure serve\` in a child process (HTTPS, SQLite) pinned to one core where taskset exists; the file is generated (test-world domains, ` +
          `role, disposable and free-mail addresses, syntax errors, repeats, quoted cells; ${Math.round(file.bytes / MB)} MB); status polled every ${POLL_MS} ms; ` +
          `this run: ${phases}. Baseline: in the bench process, once before and once after the list, the better of the two. MAILSURE_BENCH_LIST_ROWS sets the size`,
      },
    ];
    if (rss !== undefined) {
      results.push({
        title: `peak memory of the server while it runs the ${rows}-row list`,
        ours: { label: 'VmHWM of mailsure serve', value: rss / MB, unit: 'MB' },
        baseline: { label: 'goal', value: RSS_GOAL / MB, unit: 'MB' },
        ratio: rss / RSS_GOAL,
        goal: '≤ 1 (512 MB)',
        met: rss <= RSS_GOAL,
        notes:
          'VmHWM from /proc/<pid>/status of the server child at the end of the run above (start, upload, processing, results file, download)',
      });
    }
    return results;
  } finally {
    await world.close();
    rmSync(root, { recursive: true, force: true });
  }
}
