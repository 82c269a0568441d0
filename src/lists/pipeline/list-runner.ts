/**
 * Runs one list from wherever it stands: parse (once), then every chunk not yet committed
 * (several in flight, each committed with its results), then the services' reports, the
 * results file, billing and the callback. Every step is a compare-and-set on the stored list, so
 * a restart, a second worker or a cancel can come at any moment: a resumed list skips what was
 * committed, counts nothing twice and loses no record.
 */
import type { ApiKeyRecord } from '../../accounts/key-config.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { KeyStore, UsageStore } from '../../storage/interfaces.js';
import { listRecords } from '../input/prepare-list.js';
import type { ListRecord } from '../input/read-records.js';
import type { ListRow, ListServiceName, ListStore } from '../list-record.js';
import { addCounts, appendReport, intelligenceReport, validationReport, type Counts } from '../reporting.js';
import { isFinished, notifiesCallback } from '../states.js';
import { runChunk, type ChunkDeps } from './chunk-work.js';
import { applyEvent } from './list-events.js';
import { parseList } from './list-parse.js';
import type { ListPlan } from './list-plan.js';
import { uploadPath } from './list-paths.js';
import { writeListResults } from './list-results.js';

export interface ListRunnerDeps {
  store: ListStore;
  keys: Pick<KeyStore, 'findById'>;
  usage: Pick<UsageStore, 'add'>;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  chunk: ChunkDeps;
  /** Called when a list reaches Results, Invalid or Error and has a callback URL. */
  onFinished?: (list: ListRow) => void;
  /** Chunks worked on at once for one list (default 4). */
  chunksInFlight?: number;
}

export interface ListRunner {
  run(listId: number): Promise<void>;
  /** Shutdown: no new chunk starts, and a failure from here on is not the list's (it resumes at the next start). */
  stop(): void;
}

export function createListRunner(deps: ListRunnerDeps): ListRunner {
  const { store } = deps;
  let stopping = false;
  const finished = (list: ListRow | undefined) => {
    if (list && notifiesCallback(list.status) && list.callbackUrl) deps.onFinished?.(list);
    return undefined;
  };

  const fail = async (listId: number, error: unknown) => {
    deps.logger.error({ err: error, list_id: listId }, 'list failed');
    finished(await applyEvent(store, listId, { type: 'failed' }, () => ({ error: 'An internal error stopped the list; it can be submitted again' })));
  };

  async function parse(list: ListRow, key: ApiKeyRecord): Promise<ListRow | undefined> {
    const plan = await parseList(list, key, deps.dataDir);
    if (!plan.ok) return finished(await applyEvent(store, list.id, { type: 'parse_failed' }, () => ({ error: plan.reason })));
    const services = Object.fromEntries(plan.value.services.map((s) => [s, { status: 'Pending' as const, inputCount: plan.value.layout.records }]));
    return store.update(list.id, { plan: plan.value, records: plan.value.layout.records, services }, ['Pending']);
  }

  async function runChunks(list: ListRow, plan: ListPlan): Promise<'done' | 'stopped'> {
    const committed = new Set((await store.chunkCounts(list.id)).map((c) => c.index));
    if (committed.size >= plan.chunkCount) return 'done';
    let firstOpen = 0;
    while (committed.has(firstOpen)) firstOpen += 1;

    const inFlight = new Set<Promise<void>>();
    let failure: unknown;
    let stopped = false;
    const launch = async (records: ListRecord[]) => {
      const index = Math.floor(records[0]!.index / plan.chunkSize);
      if (committed.has(index)) return;
      if (stopping) {
        stopped = true;
        return;
      }
      const now = await store.get(list.id);
      if (!now || isFinished(now.status)) {
        stopped = true;
        return;
      }
      const work = runChunk(records, plan, list.keyId, deps.chunk)
        .then((outcome) => store.commitChunk(list.id, { index, records: records.length, counts: outcome.counts, results: JSON.stringify(outcome.results) }))
        .then(
          () => undefined,
          (error: unknown) => void (failure ??= error),
        )
        .finally(() => inFlight.delete(work));
      inFlight.add(work);
      if (inFlight.size >= (deps.chunksInFlight ?? 4)) await Promise.race(inFlight);
    };

    let batch: ListRecord[] = [];
    for await (const record of listRecords(uploadPath(deps.dataDir, list.id, list.format), list.format, plan.layout, { startAt: firstOpen * plan.chunkSize })) {
      if (stopped || failure) break;
      batch.push(record);
      if (batch.length === plan.chunkSize || (record.index + 1) % plan.chunkSize === 0) {
        await launch(batch);
        batch = [];
      }
    }
    if (batch.length > 0 && !stopped && !failure) await launch(batch);
    await Promise.all(inFlight);
    if (failure) throw failure;
    return stopped ? 'stopped' : 'done';
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
        service === 'email_validation' ? validationReport(counts) : service === 'email_append' ? appendReport(counts) : intelligenceReport(counts, plan.intelligenceColumns);
      current = await applyEvent(store, list.id, { type: 'service_completed', service }, (l) => ({
        services: { ...l.services, [service]: { ...l.services[service]!, completedCount: done, reporting } },
      }));
      if (!current) return undefined;
    }
    return current;
  }

  async function deliver(list: ListRow, plan: ListPlan): Promise<void> {
    await writeListResults(list, plan, store, deps.dataDir);
    // Billed once, before Results: the mark is a compare-and-set, so a worker resuming after a
    // crash (or a second worker) finds it set. A crash between the mark and the usage write
    // under-bills one list; nothing can bill it twice.
    if (await store.markBilled(list.id)) {
      await deps.usage.add(list.keyId, new Date(deps.clock.now()).toISOString().slice(0, 10), { list_record: list.records });
    }
    finished(await applyEvent(store, list.id, { type: 'results_written' }));
  }

  return {
    async run(listId) {
      try {
        let list = await store.get(listId);
        if (!list || isFinished(list.status)) return;
        const key = await deps.keys.findById(list.keyId);
        if (!key) throw new Error(`list ${listId}: key ${list.keyId} is gone`);
        if (list.plan === null) {
          list = await parse(list, key);
          if (!list) return;
        }
        const plan = list.plan as ListPlan;
        for (const service of plan.services) {
          if (list.services[service]?.status === 'Pending') list = (await applyEvent(store, listId, { type: 'service_started', service })) ?? list;
        }
        if (list.status === 'Pending' || list.status === 'Processed') {
          if ((await runChunks(list, plan)) === 'stopped') return;
          list = await complete(list, plan);
          if (!list) return;
        }
        if (list.status === 'Processing') await deliver(list, plan);
      } catch (error) {
        if (stopping) deps.logger.warn({ err: error, list_id: listId }, 'list interrupted by shutdown; it resumes at the next start');
        else await fail(listId, error);
      }
    },
    stop() {
      stopping = true;
    },
  };
}
