/**
 * A list of 1,000,000 rows (MAILSURE_BENCH_STORE_ROWS to change) through the real `mailsure serve`
 * in a child process with its files in an object store (MAILSURE_LIST_STORE on s3rver, a real
 * S3-protocol server on loopback in this process) against the same list with its files in the
 * data directory: upload → status `Results` (polled every 250 ms) → results zip downloaded. The
 * directory runs before and after the object store, the better of the two counting. Also the
 * server's peak resident memory (VmHWM, Linux) with the object store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestS3, type TestS3 } from '../test/helpers/s3-server.js';
import { startTestWorld, type TestWorld } from '../test/helpers/world/index.js';
import { writeListCsv } from '../test/integration/list-csv.js';
import { createKeyByCli, ListClient, peakRss, startMailsure } from '../test/integration/list-server.js';
import { pinServer } from './support/pin-server.js';
import type { BenchResult } from './types.js';

const ROWS = Number(process.env.MAILSURE_BENCH_STORE_ROWS ?? 1_000_000);
const POLL_MS = 250;
const RSS_GOAL = 512 * 1024 * 1024;
const MB = 1024 * 1024;

interface ListRun {
  ms: number;
  phases: string;
  peak: number | undefined;
}

/** One `mailsure serve` on a fresh data directory: the list uploaded, run and downloaded. */
async function runList(world: TestWorld, root: string, name: string, file: string, env: Record<string, string>): Promise<ListRun> {
  const options = { dataDir: join(root, name), env: { ...world.env, ...env }, wrap: pinServer() };
  const key = await createKeyByCli(options, 'bench', 'verification,lists');
  const server = await startMailsure(options);
  const client = new ListClient(server.port, key);
  try {
    const at: Record<string, number> = {};
    const started = performance.now();
    const listId = await client.submit(file);
    at.uploaded = performance.now() - started;
    for (;;) {
      const body = await client.status(listId);
      const now = performance.now() - started;
      if (body.status === 'Processing' && at.processing === undefined) at.processing = now;
      if (body.status === 'Results') break;
      if (!['Pending', 'Processed', 'Processing'].includes(body.status))
        throw new Error(`the list ended ${body.status}: ${body.error ?? ''}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    at.results = performance.now() - started;
    const bytes = await client.downloadResults(listId, join(root, `${name}.zip`));
    const ms = performance.now() - started;
    const s = (t: number) => `${(t / 1000).toFixed(1)} s`;
    return {
      ms,
      phases: `upload ${s(at.uploaded)}, services until ${s(at.processing ?? at.results)}, results stored until ${s(at.results)}, download (${Math.round(bytes / MB)} MB) until ${s(ms)}`,
      peak: await peakRss(server.pid),
    };
  } finally {
    client.close();
    await server.kill();
  }
}

export default async function run(): Promise<BenchResult[]> {
  const world = await startTestWorld();
  const root = mkdtempSync(join(tmpdir(), 'mailsure-bench-store-'));
  let s3: TestS3 | undefined;
  try {
    const file = await writeListCsv(join(root, 'list.csv'), ROWS);
    s3 = await startTestS3();
    const first = await runList(world, root, 'directory-1', file.path, {});
    const store = await runList(world, root, 'store', file.path, s3.env('bench'));
    const second = await runList(world, root, 'directory-2', file.path, {});
    const directory = first.ms <= second.ms ? first : second;
    const rows = ROWS.toLocaleString('en-US');
    process.stdout.write(
      `  object store: ${store.phases}; peak RSS ${store.peak === undefined ? 'n/a' : `${Math.round(store.peak / MB)} MB`}\n`,
    );
    process.stdout.write(`  directory (better of two): ${directory.phases}\n`);
    const ratio = store.ms / directory.ms;
    const results: BenchResult[] = [
      {
        title: `list of ${rows} rows with its files in an object store (S3 API) vs in the data directory, upload → Results → download`,
        ours: { label: 'MAILSURE_LIST_STORE=s3://… (s3rver on loopback)', value: store.ms / 1000, unit: 's' },
        baseline: { label: 'data directory', value: directory.ms / 1000, unit: 's' },
        ratio,
        goal: '≤ 1.3',
        met: ratio <= 1.3,
        notes:
          `real \`mailsure serve\` (HTTPS, SQLite, depth domain against the test world) in a child process pinned to one core where taskset exists, on a fresh data ` +
          `directory per run; the object store is s3rver in the bench process (objects on local disk, path-style, multipart uploads of 8 MiB parts); the list bench's ` +
          `generated file (${Math.round(file.bytes / MB)} MB). The directory runs before and after the object store, the better of the two counting. This run: ` +
          `object store ${store.phases}; directory ${directory.phases}. MAILSURE_BENCH_STORE_ROWS sets the size`,
      },
    ];
    if (store.peak !== undefined) {
      results.push({
        title: `peak memory of the server while it runs the ${rows}-row list with its files in an object store`,
        ours: { label: 'VmHWM of mailsure serve', value: store.peak / MB, unit: 'MB' },
        baseline: { label: 'goal', value: RSS_GOAL / MB, unit: 'MB' },
        ratio: store.peak / RSS_GOAL,
        goal: '≤ 1 (512 MB)',
        met: store.peak <= RSS_GOAL,
        notes: `VmHWM from /proc/<pid>/status of the server child at the end of the object-store run above (upload, processing, results stored, download); the directory runs' peak: ${
          first.peak === undefined ? 'n/a' : `${Math.round(Math.max(first.peak, second.peak ?? 0) / MB)} MB`
        }`,
      });
    }
    return results;
  } finally {
    await s3?.close();
    await world.close();
    rmSync(root, { recursive: true, force: true });
  }
}
