/**
 * Fairness between keys' lists (issue 31 point 3): key B's 1,000-row list submitted behind key A's
 * sixteen 20,000-row lists, against the same list of B on the same server while idle (measured
 * first). Depth domain against the test world, verification only, the default chunk size,
 * status polled every 25 ms. Goal: at most twice the idle time.
 *
 * B's list takes well under a second, so one stall of the machine (the 2-core development VMs are
 * shared) moves one measurement by half its size: each side is the median of three lists, one
 * after the other, and the idle side comes after one unmeasured list, so that neither side pays for
 * a cold process (its DNS answers, database connections and compiled code) that the other does not.
 *
 * Two set-ups: the embedded default (`mailsure serve`, SQLite), and PostgreSQL + Redis with
 * `serve --no-worker` and two `mailsure worker` processes (skipped, and said so, when
 * MAILSURE_TEST_DATABASE_URL / MAILSURE_TEST_REDIS_URL do not answer).
 */
import { cpus } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestWorld, type TestWorld } from '../test/helpers/world/index.js';
import { writeListCsv, type ListFile } from '../test/integration/list-csv.js';
import { createKeyByCli, ListClient, startMailsure, type ChildMailsure, type ServerOptions } from '../test/integration/list-server.js';
import { SharedState, testDatabaseUrl, testRedisUrl, unreachable } from './support/shared-state.js';
import type { BenchResult } from './types.js';

const BIG_LISTS = 16;
const BIG_ROWS = 20_000;
const SMALL_ROWS = 1_000;
const POLL_MS = 25;
/** Lists of B measured on each side; the median is the figure. */
const SAMPLES = 3;
const REDIS_DB = 12;

interface Lists {
  big: ListFile;
  small: ListFile;
}

/** Submit → Results of one list, in ms. */
async function timeList(client: ListClient, file: ListFile): Promise<number> {
  const started = performance.now();
  const listId = await client.submit(file.path);
  for (;;) {
    const body = await client.status(listId);
    if (body.status === 'Results') return performance.now() - started;
    if (!['Pending', 'Processed', 'Processing'].includes(body.status))
      throw new Error(`list ${listId} ended ${body.status}: ${body.error ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Five runs of 2026-11-28 (warm medians as above), on the shared 2-core VM at a load average of 10
 * to 12 from other work: what one run's row cannot say.
 */
const SPREAD = {
  embedded:
    '. Five runs of 2026-11-28, the shared 2-core VM at a load average of 10 to 12 from other work: ratios 2.80, 1.16, 3.00, 1.52, 1.64 (three of five met); five more on the quiet machine (load average 1.3 to 2.4, no other work): 2.25, 2.06, 1.79, 1.99, 1.78 (three of five met; the idle list of B 0.12 to 0.17 s, so 0.1 s decides); two more on the quiet machine after the domain scheduler’s lanes went least served first (load average 0.5 to 1.7): 2.32, 2.03 (neither met); ' +
    'then on the shared VM (load average 1.2 to 3.5 from other work), in alternating runs, without and with the scheduler’s turns bounded (8 task starts per turn of the event loop): 1.84, 2.02, 1.65, 2.14, 1.82, 2.03, 2.19 without (two of seven met), 0.77, 1.10, 1.09, 1.06, 1.05, 1.20, 1.02 with (all met; B’s idle lists 0.14 to 0.21 s either way); with the number of starts per turn adapting (8 at least, doubled after a turn within its millisecond, so that SMTP probes, which cost little to start, share sessions as before): 1.17, 1.28, 1.30, 1.70 (load average 0.7 to 1.6). ' +
    'What B waited for was the length of the event loop’s turns: A’s verifications answered from caches end in the microtasks of the turn that started them, and up to 64 were started in one turn, so turns of about 5 ms, and each of B’s steps (the upload’s file writes, the parse’s reads, its database writes, each status poll) waited for one; ' +
    'a profile gave A’s SQLite commits of chunk results, its results files and its CSV parsing together about a sixth of the process’s time, its verifications and their verdict records most of the rest; ' +
    "B's idle lists 0.14 to 1.05 s, its lists behind A 0.23 to 0.70 s",
  scaleOut:
    '. Five runs of 2026-11-28, the shared 2-core VM at a load average of 10 to 12 from other work: ratios 3.17, 3.78, 3.10, 1.98, 2.22 (one of five met); five more on the quiet machine (load average 1.3 to 2.4, no other work): 1.57, 1.24, 1.07, 2.62, 1.25 (four of five met); two more after the lanes went least served first: 1.03, 1.24 (both met); seven alternating pairs on the shared VM (load average 1.2 to 3.5 from other work), without and with the bounded turns: 2.47, 3.13, 1.76, 1.31, 2.14, 0.94, 2.57 without, 1.58, 2.52, 1.89, 0.98, 1.34, 1.44, 0.77 with. ' +
    "Behind A, one of B's lists in three took about its idle time (0.29 to 0.78 s) and the others 1.2 to 3.3 s; the worker processes used a fifth to two thirds of a core " +
    'with event-loop delays of 10 to 50 ms (median) even while idle, the CPU going to other processes. The former measure (one list each side, ' +
    "the idle one the server's first, cold list: its DNS answers, database connections and compiled code) gave 0.58 to 1.76 in the same runs",
};

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

interface Measured {
  idleMs: number;
  loadedMs: number;
  idleRuns: number[];
  loadedRuns: number[];
  /** The unmeasured first list, on a process that has done nothing yet. */
  coldMs: number;
  aDone: number;
}

/** B's list idle (after one unmeasured), then behind A's sixteen (still running when B's last is done: counted). */
async function measure(port: number, keys: { a: string; b: string }, lists: Lists): Promise<Measured> {
  const a = new ListClient(port, keys.a);
  const b = new ListClient(port, keys.b);
  try {
    const coldMs = await timeList(b, lists.small);
    const idleRuns: number[] = [];
    for (let i = 0; i < SAMPLES; i++) idleRuns.push(await timeList(b, lists.small));
    const aLists: number[] = [];
    for (let i = 0; i < BIG_LISTS; i++) aLists.push(await a.submit(lists.big.path));
    const loadedRuns: number[] = [];
    for (let i = 0; i < SAMPLES; i++) loadedRuns.push(await timeList(b, lists.small));
    let aDone = 0;
    for (const id of aLists) if ((await a.status(id)).status === 'Results') aDone += 1;
    return { idleMs: median(idleRuns), loadedMs: median(loadedRuns), idleRuns, loadedRuns, coldMs, aDone };
  } finally {
    a.close();
    b.close();
  }
}

async function embedded(world: TestWorld, root: string, lists: Lists): Promise<BenchResult> {
  const options: ServerOptions = { dataDir: join(root, 'embedded'), env: world.env };
  const keys = { a: await createKeyByCli(options, 'a', 'verification,lists'), b: await createKeyByCli(options, 'b', 'verification,lists') };
  const server = await startMailsure(options);
  try {
    return result('embedded (one `mailsure serve`, SQLite)', await measure(server.port, keys, lists));
  } finally {
    await server.kill();
  }
}

async function scaleOut(world: TestWorld, root: string, lists: Lists): Promise<BenchResult | undefined> {
  const problem = await unreachable(testDatabaseUrl, testRedisUrl);
  if (problem) {
    process.stdout.write(`  list-fairness: scale-out skipped (${problem})\n`);
    return undefined;
  }
  const state = new SharedState(testDatabaseUrl, testRedisUrl);
  const children: ChildMailsure[] = [];
  try {
    const options: ServerOptions = {
      dataDir: join(root, 'scale-out'),
      env: {
        ...world.env,
        MAILSURE_DATABASE_URL: await state.database(`mailsure_bench_fairness_${process.pid}`),
        MAILSURE_REDIS_URL: await state.redis(REDIS_DB),
      },
    };
    const keys = {
      a: await createKeyByCli(options, 'a', 'verification,lists'),
      b: await createKeyByCli(options, 'b', 'verification,lists'),
    };
    children.push(await startMailsure({ ...options, command: ['serve', '--no-worker'] }));
    for (let i = 0; i < 2; i++) children.push(await startMailsure({ ...options, command: ['worker'] }));
    return result('PostgreSQL + Redis, `serve --no-worker` and two `mailsure worker`', await measure(children[0]!.port, keys, lists));
  } finally {
    await Promise.all(children.map((c) => c.kill()));
    await state.close();
  }
}

function result(setup: string, m: Measured): BenchResult {
  const ratio = m.loadedMs / m.idleMs;
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const runs = (values: number[]) => values.map(s).join(', ');
  process.stdout.write(
    `  list-fairness, ${setup}: B idle ${s(m.idleMs)} (${runs(m.idleRuns)}), behind A ${s(m.loadedMs)} (${runs(m.loadedRuns)}); the first, cold list ${s(m.coldMs)}; A's lists in Results by then: ${m.aDone} of ${BIG_LISTS}\n`,
  );
  return {
    title: `key B's ${SMALL_ROWS.toLocaleString('en-US')}-row list behind key A's ${BIG_LISTS} lists of ${BIG_ROWS.toLocaleString('en-US')} rows, ${setup}`,
    ours: { label: 'B behind A', value: m.loadedMs / 1000, unit: 's' },
    baseline: { label: 'B on the idle server', value: m.idleMs / 1000, unit: 's' },
    ratio,
    goal: '≤ 2',
    met: ratio <= 2,
    notes:
      `submit → Results, status polled every ${POLL_MS} ms, depth domain against the test world, verification only, default chunk size and settings; ` +
      `each side the median of ${SAMPLES} lists of B one after the other (idle: ${runs(m.idleRuns)}, after one unmeasured list of ${s(m.coldMs)}; behind A: ${runs(m.loadedRuns)}); ` +
      `A's lists submitted one after the other, then B's; ${m.aDone} of A's ${BIG_LISTS} lists were in Results when B's last was (${cpus().length} cores)` +
      (setup.startsWith('PostgreSQL') ? SPREAD.scaleOut : SPREAD.embedded),
  };
}

export default async function run(): Promise<BenchResult[]> {
  const world = await startTestWorld();
  const root = mkdtempSync(join(tmpdir(), 'mailsure-bench-fairness-'));
  try {
    const lists = {
      big: await writeListCsv(join(root, 'big.csv'), BIG_ROWS, 1),
      small: await writeListCsv(join(root, 'small.csv'), SMALL_ROWS, 2),
    };
    const results = [await embedded(world, root, lists)];
    const scaled = await scaleOut(world, root, lists);
    if (scaled) results.push(scaled);
    return results;
  } finally {
    await world.close();
    rmSync(root, { recursive: true, force: true });
  }
}
