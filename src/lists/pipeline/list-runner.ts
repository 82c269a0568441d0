/**
 * Runs one list from wherever it stands: parse (once), then every chunk not yet committed
 * (several in flight, each committed with its results), then the services' reports, the
 * results file (and the evidence file of a list with evidence), billing and the callback. Every step is a compare-and-set on the stored list, so
 * a restart, a second worker or a cancel can come at any moment: a resumed list skips what was
 * committed, counts nothing twice and loses no record.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ApiKeyRecord } from '../../accounts/key-config.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { KeyStore } from '../../accounts/key-store.js';
import type { UsageStore } from '../../accounts/usage-store.js';
import { isListFilesUnavailable, type ListFiles } from '../list-files.js';
import type { ListRow, ListServiceName, ListStore } from '../list-record.js';
import { addCounts, appendReport, intelligenceReport, validationReport, type Counts } from '../reporting.js';
import { isFinished, notifiesCallback } from '../states.js';
import type { ChunkDeps } from './chunk-work.js';
import type { FairGate } from './fair-gate.js';
import { createLeases, PARSE_STEP, RESULTS_STEP, sleep, type Leases } from './lease.js';
import { runListChunks } from './list-chunks.js';
import { applyEvent } from './list-events.js';
import { parseList } from './list-parse.js';
import type { ListPlan } from './list-plan.js';
import { writeListEvidence } from './list-evidence.js';
import type { ListRunner } from './list-queue.js';
import { writeListResults } from './list-results.js';

export interface ListRunnerDeps {
  store: ListStore;
  keys: Pick<KeyStore, 'findById'>;
  usage: Pick<UsageStore, 'add'>;
  files: ListFiles;
  clock: Clock;
  logger: Logger;
  chunk: ChunkDeps;
  /** Called when a list reaches Results, Invalid or Error and has a callback URL. */
  onFinished?: (list: ListRow) => void;
  /** Chunks worked on at once for one list (default 4). */
  chunksInFlight?: number;
  /** The process's chunk slots, shared fairly between keys (fair-gate.ts). */
  gate?: FairGate;
  /** This worker's name in chunk leases (default host:pid:random). */
  worker?: string;
  /** How often a worker looks at work another one holds (default 1 s). */
  waitMs?: number;
  /**
   * Whether a failure is a dependency that did not answer in time (a locked or stalled
   * database): the list waits and goes on from where it stands, never ends in Error for it.
   */
  isTransient?: (error: unknown) => boolean;
  /** The first wait after such a failure (default 1 s), doubled each time up to 30 s. */
  transientRetryMs?: number;
  /**
   * How long a list waits for its file store to answer again (MAILSURE_LIST_STORE_WAIT_MINUTES)
   * before it ends in Error saying so; unset: for ever. Counted from the first failure of an
   * unbroken run of them, on this worker's clock.
   */
  storeWaitMs?: number;
}

const MAX_TRANSIENT_WAIT_MS = 30_000;

export function createListRunner(deps: ListRunnerDeps): ListRunner {
  const { store } = deps;
  let stopping = false;
  const worker = deps.worker ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  // Runs at once in this process (a queue with concurrency, several jobs of one list) each lease
  // under a name of their own: a lease is re-taken by the name that holds it, so two runs under
  // one name would both parse, run every chunk and write the results file. A run takes the lowest
  // free slot, so after a restart the first run is `worker` again and resumes its own chunks.
  const slots = new Set<number>();
  const takeSlot = (): number => {
    let slot = 0;
    while (slots.has(slot)) slot += 1;
    slots.add(slot);
    return slot;
  };
  const finished = (list: ListRow | undefined) => {
    if (list && notifiesCallback(list.status) && list.callbackUrl) deps.onFinished?.(list);
    return undefined;
  };

  const fail = async (listId: number, error: unknown, reason = 'An internal error stopped the list; it can be submitted again') => {
    deps.logger.error({ err: error, list_id: listId }, 'list failed');
    finished(await applyEvent(store, listId, { type: 'failed' }, () => ({ error: reason })));
  };

  /** Parses once, whichever worker gets there first; the others wait for its plan. */
  async function parse(list: ListRow, key: ApiKeyRecord, leases: Leases): Promise<ListRow | undefined> {
    while (!(await leases.take(list.id, PARSE_STEP))) {
      // Often: a parse takes about a second, and every wait here is a worker idle on the list.
      await sleep(deps.waitMs ?? 250);
      const now = await store.get(list.id);
      if (!now || now.plan !== null || isFinished(now.status) || stopping) return now?.plan ? now : undefined;
    }
    const plan = await leases.hold(list.id, PARSE_STEP, () => parseList(list, key, deps.files));
    if (!plan.ok) return finished(await applyEvent(store, list.id, { type: 'parse_failed' }, () => ({ error: plan.reason })));
    const services = Object.fromEntries(
      plan.value.services.map((s) => [s, { status: 'Pending' as const, inputCount: plan.value.layout.records }]),
    );
    return store.update(list.id, { plan: plan.value, records: plan.value.layout.records, services }, ['Pending']);
  }

  async function complete(list: ListRow, plan: ListPlan): Promise<ListRow | undefined> {
    const chunks = await store.chunkCounts(list.id);
    const done = chunks.reduce((n, c) => n + c.records, 0);
    if (done !== plan.layout.records) throw new Error(`list ${list.id}: ${done} of ${plan.layout.records} records committed`);
    const perService = (service: ListServiceName): Counts =>
      addCounts(...chunks.map((c) => (c.counts as Partial<Record<ListServiceName, Counts>>)[service] ?? {}));
    let current: ListRow | undefined = list;
    for (const service of plan.services) {
      const counts = perService(service);
      const reporting =
        service === 'email_validation'
          ? validationReport(counts)
          : service === 'email_append'
            ? appendReport(counts)
            : intelligenceReport(counts, plan.intelligenceColumns);
      current = await applyEvent(store, list.id, { type: 'service_completed', service }, (l) => ({
        services: { ...l.services, [service]: { ...l.services[service]!, completedCount: done, reporting } },
      }));
      if (!current) return undefined;
    }
    return current;
  }

  /** Writes the results once, whichever worker gets there first; a dead writer's lease runs out. */
  async function deliver(list: ListRow, plan: ListPlan, leases: Leases): Promise<void> {
    while (!(await leases.take(list.id, RESULTS_STEP))) {
      await sleep(deps.waitMs ?? 1_000);
      const now = await store.get(list.id);
      if (!now || now.status !== 'Processing' || stopping) return;
    }
    await leases.hold(list.id, RESULTS_STEP, async () => {
      await writeListResults(list, plan, store, deps.files);
      if (list.evidence) await writeListEvidence(list, plan, store, deps.files);
      await deps.files.keepResults(list.id);
    });
    // Billed once, before Results: the mark is a compare-and-set, so a worker resuming after a
    // crash (or a second worker) finds it set. A crash between the mark and the usage write
    // under-bills one list; nothing can bill it twice.
    if (await store.markBilled(list.id)) {
      await deps.usage.add(list.keyId, new Date(deps.clock.now()).toISOString().slice(0, 10), { list_record: list.records });
    }
    finished(await applyEvent(store, list.id, { type: 'results_written' }));
  }

  /** One pass over the list; the failure to wait out when a dependency did not answer in time. */
  async function runOnce(listId: number): Promise<{ retry: unknown } | undefined> {
    const slot = takeSlot();
    const leases = createLeases(store, slot === 0 ? worker : `${worker}#${slot}`, deps.clock);
    try {
      let list = await store.get(listId);
      if (!list || isFinished(list.status)) return;
      const key = await deps.keys.findById(list.keyId);
      if (!key) throw new Error(`list ${listId}: key ${list.keyId} is gone`);
      if (list.plan === null) {
        list = await parse(list, key, leases);
        if (!list) return;
      }
      const plan = list.plan as ListPlan;
      // Waiting for a purchase: nothing to do until it comes (a polling worker asks often).
      if (list.status === 'Processed' && list.report && list.purchase === null) return;
      for (const service of plan.services) {
        if (list.services[service]?.status === 'Pending')
          list = (await applyEvent(store, listId, { type: 'service_started', service })) ?? list;
      }
      if (list.status === 'Pending' || list.status === 'Processed') {
        const ran = await runListChunks(list, plan, {
          store,
          leases,
          chunk: deps.chunk,
          files: deps.files,
          chunksInFlight: deps.chunksInFlight ?? 4,
          ...(deps.gate ? { gate: deps.gate } : {}),
          stopping: () => stopping,
          ...(deps.waitMs !== undefined ? { waitMs: deps.waitMs } : {}),
        });
        if (ran === 'stopped') return;
        list = await complete(list, plan);
        if (!list) return;
      }
      if (list.status === 'Processing') await deliver(list, plan, leases);
    } catch (error) {
      if (stopping) deps.logger.warn({ err: error, list_id: listId }, 'list interrupted by shutdown; it resumes at the next start');
      else if (isListFilesUnavailable(error) || deps.isTransient?.(error)) return { retry: error };
      else await fail(listId, error);
    } finally {
      slots.delete(slot);
    }
    return undefined;
  }

  return {
    async run(listId) {
      let waitMs = deps.transientRetryMs ?? 1_000;
      let storeDownSince: number | undefined;
      for (;;) {
        const outcome = await runOnce(listId);
        if (!outcome || stopping) return;
        const storeDown = isListFilesUnavailable(outcome.retry);
        if (!storeDown) storeDownSince = undefined;
        else storeDownSince ??= deps.clock.now();
        if (storeDown && deps.storeWaitMs !== undefined && deps.clock.now() - storeDownSince! >= deps.storeWaitMs) {
          const minutes = Math.round(deps.storeWaitMs / 60_000);
          return fail(listId, outcome.retry, `The list store did not answer for ${minutes} minutes; the list can be submitted again`);
        }
        deps.logger.warn(
          { list_id: listId, wait_ms: waitMs, dependency: storeDown ? 'list_store' : 'database' },
          `list ${listId} waits: ${storeDown ? 'the list store' : 'a dependency'} did not answer in time; it goes on in ${waitMs / 1000} s`,
        );
        await sleep(waitMs);
        waitMs = Math.min(MAX_TRANSIENT_WAIT_MS, waitMs * 2);
      }
    },
    stop() {
      stopping = true;
    },
  };
}
