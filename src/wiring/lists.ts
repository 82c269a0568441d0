/**
 * The composition root's list part: the List API's service, the pipeline over the same services
 * as the real-time routes, its queue (in-process, or BullMQ on Redis) and the callbacks.
 */
import type { UsageMeter } from '../accounts/usage-meter.js';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import type { EnrichService } from '../enrichment/enrich-service.js';
import type { AppendService } from '../identity/append/index.js';
import type { ListFiles } from '../lists/list-files.js';
import { createListService, type ListService } from '../lists/list-service.js';
import { createCallbackSender, type CallbackSender } from '../lists/pipeline/callback-sender.js';
import { createDomainScheduler } from '../lists/pipeline/domain-scheduler.js';
import { createFairGate } from '../lists/pipeline/fair-gate.js';
import type { HoldBackPolicy } from '../lists/pipeline/hold-back.js';
import { createListQueue, createNoListQueue, type ListQueue } from '../lists/pipeline/list-queue.js';
import { createListRunner } from '../lists/pipeline/list-runner.js';
import type { Storage } from '../storage/interfaces.js';
import { isDatabaseTimeout } from '../storage/postgres/open-postgres.js';
import type { VerifyService } from '../verification/verify-service.js';

export interface ListsDeps {
  config: Pick<
    Config,
    | 'allowPrivateTargets'
    | 'listWorkers'
    | 'listPollSeconds'
    | 'listChunksPerKey'
    | 'redisUrl'
    | 'listStoreWaitMinutes'
    | 'listMaxBytes'
    | 'listUploadsPerKey'
    | 'listWaitingPerKey'
    | 'listMaxStoredBytes'
    | 'retentionDays'
  >;
  /** The list store (observed: every state change logged and counted), keys and usage. */
  storage: Pick<Storage, 'lists' | 'keys' | 'usage'>;
  /** What a list's rows run through: the list lane's verification, enrichment and append. */
  services: { verify: VerifyService; enrich: EnrichService; append: AppendService };
  meter: UsageMeter;
  files: ListFiles;
  clock: Clock;
  logger: Logger;
  /** False: lists submitted here wait in the store (or the Redis queue) for `mailsure worker` processes. */
  runLists?: boolean;
  /** Names this process in chunk leases and callback claims (container.ts, ContainerOptions.worker). */
  worker?: string;
  /** Scales the callback back-off (1 = a minute for the first retry). */
  callbackDelayScale?: number;
  holdBack?: HoldBackPolicy;
  /** A list's first wait after a dependency did not answer. */
  retryMs?: number;
}

export interface Lists {
  service: ListService;
  queue: ListQueue;
  callbacks: CallbackSender;
}

/** Chunks one list works on at once. */
const CHUNKS_PER_LIST = 4;

/** Jobs a list gets on the Redis queue: how many workers may share one list. */
const LIST_SHARES = 4;

/** Longest wait for one row's verification in a chunk. */
const VERIFY_TIMEOUT_MS = 10_000;

export async function createLists(deps: ListsDeps): Promise<Lists> {
  const { config, storage, clock, files } = deps;
  const { queue, callbacks } = await createListProcessing(deps);
  const service = createListService({
    lists: storage.lists,
    queue,
    meter: deps.meter,
    clock,
    files,
    listMaxBytes: config.listMaxBytes,
    allowPrivateTargets: config.allowPrivateTargets,
    pollSeconds: config.listPollSeconds,
    limits: {
      uploadsPerKey: config.listUploadsPerKey,
      waitingPerKey: config.listWaitingPerKey,
      storedBytesPerKey: config.listMaxStoredBytes,
      retentionDays: config.retentionDays,
    },
  });
  return { service, queue, callbacks };
}

/**
 * The list pipeline over the same services as the real-time routes, with its queue. BullMQ (some
 * 300 modules, the largest part of a process's start) is loaded only when Redis is configured.
 */
async function createListProcessing(deps: ListsDeps): Promise<{ queue: ListQueue; callbacks: CallbackSender }> {
  const { config, storage, services, clock, logger, files } = deps;
  const runLists = deps.runLists ?? true;
  const callbacks = createCallbackSender({
    store: storage.lists,
    keys: storage.keys,
    clock,
    logger,
    allowPrivateTargets: config.allowPrivateTargets,
    ...(deps.callbackDelayScale !== undefined ? { delayScale: deps.callbackDelayScale } : {}),
    ...(deps.worker ? { worker: deps.worker } : {}),
  });
  const runner = createListRunner({
    store: storage.lists,
    keys: storage.keys,
    usage: storage.usage,
    files,
    clock,
    logger,
    chunk: {
      ...services,
      scheduler: createDomainScheduler({ concurrency: 64, perDomain: 4 }),
      verifyTimeoutMs: VERIFY_TIMEOUT_MS,
      ...(deps.holdBack ? { holdBack: deps.holdBack } : {}),
    },
    chunksInFlight: CHUNKS_PER_LIST,
    // Every list of this process shares MAILSURE_LIST_WORKERS × 4 chunk slots, round-robin between keys.
    gate: createFairGate({ total: config.listWorkers * CHUNKS_PER_LIST, perKey: config.listChunksPerKey }),
    onFinished: (list) => callbacks.send(list.id),
    // A locked or stalled database pauses a list; it never ends it in Error. An object store that
    // does not answer pauses it too, for at most MAILSURE_LIST_STORE_WAIT_MINUTES.
    isTransient: isDatabaseTimeout,
    storeWaitMs: config.listStoreWaitMinutes * 60_000,
    ...(deps.retryMs !== undefined ? { transientRetryMs: deps.retryMs } : {}),
    ...(deps.worker ? { worker: deps.worker } : {}),
  });
  if (config.redisUrl) {
    const { createBullListQueue } = await import('../storage/redis/bull-list-queue.js');
    const queue = createBullListQueue({
      redisUrl: config.redisUrl,
      store: storage.lists,
      logger,
      shares: LIST_SHARES,
      ...(runLists ? { worker: { runner, concurrency: config.listWorkers } } : {}),
    });
    return { queue, callbacks };
  }
  // Without Redis, an API process that runs no lists leaves them to `mailsure worker` processes,
  // which find them in the database (they poll for unfinished lists).
  const queue = runLists ? createListQueue({ runner, store: storage.lists, logger, concurrency: config.listWorkers }) : createNoListQueue();
  return { queue, callbacks };
}
