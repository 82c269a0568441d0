/**
 * Runs a list's uncommitted chunks, shared with any other worker on the same list: a chunk is
 * leased before it is worked on and committed with its results; chunks another worker holds are
 * skipped, then waited for — and taken over if that worker's lease runs out (it died).
 */
import { listRecords } from '../input/prepare-list.js';
import type { ListRecord } from '../input/read-records.js';
import type { ListRow, ListStore } from '../list-record.js';
import { isFinished } from '../states.js';
import { runChunk, type ChunkDeps } from './chunk-work.js';
import type { FairGate } from './fair-gate.js';
import { ListStopped, type HoldBackControl } from './hold-back.js';
import { sleep, type Leases } from './lease.js';
import type { ListPlan } from './list-plan.js';
import type { ListFiles } from '../list-files.js';

export interface ChunkRunDeps {
  store: ListStore;
  leases: Leases;
  chunk: ChunkDeps;
  files: ListFiles;
  chunksInFlight: number;
  /** The process's chunk slots, shared fairly between keys (fair-gate.ts); none: only `chunksInFlight` bounds. */
  gate?: FairGate;
  /** Shutdown: stop starting chunks. */
  stopping: () => boolean;
  /** How often to look at chunks other workers hold (default 1 s). */
  waitMs?: number;
}

export async function runListChunks(list: ListRow, plan: ListPlan, deps: ChunkRunDeps): Promise<'done' | 'stopped'> {
  const committedNow = async () => new Set((await deps.store.chunkCounts(list.id)).map((c) => c.index));
  let committed = await committedNow();
  let mine = new Set<number>();
  for (;;) {
    if (committed.size >= plan.chunkCount) return 'done';
    const pass = await runPass(list, plan, committed, mine, deps);
    if (pass.stopped) return 'stopped';
    mine = new Set();
    committed = await committedNow();
    let waiting = [...pass.skipped].filter((i) => !committed.has(i));
    while (waiting.length > 0 && mine.size === 0) {
      await sleep(deps.waitMs ?? 1_000);
      if (deps.stopping() || (await isStopped(deps.store, list.id))) return 'stopped';
      committed = await committedNow();
      waiting = waiting.filter((i) => !committed.has(i));
      for (const index of waiting) if (await deps.leases.take(list.id, index)) mine.add(index);
    }
  }
}

/** How many times `chunksInFlight` chunks may be open while most of them wait for held-back rows. */
const HELD_CHUNKS_FACTOR = 8;

function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** `check()` at most once per `ms`; the answer in between is the last one. */
function everyAtMost(ms: number, check: () => Promise<boolean>): () => Promise<boolean> {
  let last: { at: number; answer: Promise<boolean> } | undefined;
  return () => {
    if (!last || Date.now() - last.at >= ms) last = { at: Date.now(), answer: check() };
    return last.answer;
  };
}

async function isStopped(store: ListStore, listId: number): Promise<boolean> {
  const now = await store.get(listId);
  return !now || isFinished(now.status);
}

/** One read of the file from the first uncommitted chunk: runs every chunk this worker can lease. */
async function runPass(
  list: ListRow,
  plan: ListPlan,
  committed: ReadonlySet<number>,
  mine: ReadonlySet<number>,
  deps: ChunkRunDeps,
): Promise<{ stopped: boolean; skipped: Set<number> }> {
  let firstOpen = 0;
  while (committed.has(firstOpen)) firstOpen += 1;
  const skipped = new Set<number>();
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  let stopped = false;
  // Chunks whose rows are all answered but some held back for a throttling provider (hold-back.ts)
  // hold no verification slot: more chunks start meanwhile, up to HELD_CHUNKS_FACTOR times as many.
  let holding = 0;
  let changed = signal();
  const tell = () => {
    changed.resolve();
    changed = signal();
  };
  const listStopped = everyAtMost(deps.waitMs ?? 1_000, () => isStopped(deps.store, list.id));
  const control: HoldBackControl = {
    holding(waiting) {
      holding += waiting ? 1 : -1;
      tell();
    },
    stopped: async () => deps.stopping() || (await listStopped()),
  };
  const full = () => inFlight.size - holding >= deps.chunksInFlight || inFlight.size >= deps.chunksInFlight * HELD_CHUNKS_FACTOR;

  const launch = async (records: ListRecord[]) => {
    const index = Math.floor(records[0]!.index / plan.chunkSize);
    if (committed.has(index)) return;
    if (deps.stopping()) {
      stopped = true;
      return;
    }
    // The slot before the lease: a chunk waiting for its turn holds no chunk another worker could run.
    const slot = await deps.gate?.acquire(list.keyId);
    const chunkControl: HoldBackControl = {
      holding(waiting) {
        slot?.holding(waiting);
        control.holding(waiting);
      },
      stopped: control.stopped,
    };
    // Whether the list still runs and the chunk's lease are asked together, and off the reading:
    // the next chunk is read (and its slot taken) while these answer. Under load each is a
    // database round trip of tens of milliseconds, and a small list's chunks waited for both in
    // turn, one chunk after the other.
    const work = (async () => {
      const [halted, leased] = await Promise.all([isStopped(deps.store, list.id), mine.has(index) || deps.leases.take(list.id, index)]);
      if (halted) {
        stopped = true;
        return;
      }
      if (!leased) {
        skipped.add(index);
        return;
      }
      await deps.leases.hold(list.id, index, async () => {
        const outcome = await runChunk(records, plan, list, deps.chunk, chunkControl);
        // Results and evidence in one write: a chunk is committed with both or neither.
        await deps.store.commitChunk(list.id, {
          index,
          records: records.length,
          counts: outcome.counts,
          results: JSON.stringify(outcome.results),
          ...(outcome.evidence ? { evidence: JSON.stringify(outcome.evidence) } : {}),
        });
      });
    })()
      .catch((error: unknown) => {
        if (error instanceof ListStopped) stopped = true;
        else failure ??= error;
      })
      .finally(() => {
        slot?.release();
        inFlight.delete(work);
        tell();
      });
    inFlight.add(work);
    while (full()) await changed.promise;
  };

  let batch: ListRecord[] = [];
  const upload = await deps.files.uploadPath(list.id, list.format);
  for await (const record of listRecords(upload, list.format, plan.layout, { startAt: firstOpen * plan.chunkSize })) {
    if (stopped || failure) break;
    batch.push(record);
    if ((record.index + 1) % plan.chunkSize === 0) {
      await launch(batch);
      batch = [];
    }
  }
  if (batch.length > 0 && !stopped && !failure) await launch(batch);
  await Promise.all(inFlight);
  if (failure) throw failure;
  return { stopped, skipped };
}
