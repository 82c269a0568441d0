/**
 * The composition root: configuration in, wired services out. The only place that decides which
 * implementation of a store or limiter a process uses.
 */
import { isDatabaseTimeout } from '../storage/postgres/open-postgres.js';
import { Redis } from 'ioredis';
import { createKeyAuthenticator, type KeyAuthenticator } from '../accounts/key-authenticator.js';
import { createUsageMeter, type UsageMeter } from '../accounts/usage-meter.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import type { Storage } from '../storage/interfaces.js';
import { openStorage, storageOptionsOf } from '../storage/open-storage.js';
import { loadSecretKey } from '../storage/secret-box.js';
import { verdictMemoryKey } from '../verification/verdict-memory.js';
import { createEnrichService, type EnrichService } from '../enrichment/enrich-service.js';
import { createAppendService, individualMatcher, type AppendService } from '../identity/append/index.js';
import { createIdentityMatcher } from '../identity/match/index.js';
import { createCallbackSender, type CallbackSender } from '../lists/pipeline/callback-sender.js';
import { DEFAULT_HOLD_BACK, type HoldBackPolicy } from '../lists/pipeline/hold-back.js';
import { createDomainScheduler } from '../lists/pipeline/domain-scheduler.js';
import { createFairGate } from '../lists/pipeline/fair-gate.js';
import { createListQueue, createNoListQueue, type ListQueue } from '../lists/pipeline/list-queue.js';
import { createBullListQueue } from '../storage/redis/bull-list-queue.js';
import { createRedisSharedQuota } from '../storage/redis/redis-shared-quota.js';
import type { BudgetTuning } from '../verification/smtp/connection-budget.js';
import { waitForRedis } from '../storage/redis/wait-for-redis.js';
import { createListRunner } from '../lists/pipeline/list-runner.js';
import type { ListFiles } from '../lists/list-files.js';
import { createListService, type ListService } from '../lists/list-service.js';
import { createDirectoryListFiles } from '../lists/pipeline/directory-list-files.js';
import type { ProberHealth } from '../verification/health/prober-health.js';
import type { VerifyService } from '../verification/verify-service.js';
import { createMetrics, type Metrics } from '../observability/metrics.js';
import { observeListStore } from '../observability/observed-list-store.js';
import { watchScrapeTimeGauges } from '../observability/scrape-time-gauges.js';
import { createVerification, type HealthTuning, type SmtpPoolTuning } from './verification.js';

export interface Container {
  config: Config;
  logger: Logger;
  clock: Clock;
  storage: Storage;
  redis: Redis | null;
  authenticator: KeyAuthenticator;
  meter: UsageMeter;
  verify: VerifyService;
  /** What the prober knows of its own resolver, egress and identity; `start()` runs the first check. */
  proberHealth: ProberHealth;
  enrich: EnrichService;
  append: AppendService;
  /** The List API's operations (submit, status, cancel…), for the routes and anyone else. */
  lists: ListService;
  listQueue: ListQueue;
  /** Where lists' uploads and results live (one instance for the routes, the runner and retention). */
  listFiles: ListFiles;
  /** Whether the object store of lists answers (for /readyz's body); absent without one. */
  listStoreCheck?: () => Promise<void>;
  /** List callbacks; `resume()` at start picks up those an earlier process left undelivered. */
  listCallbacks: CallbackSender;
  /** Prometheus metrics (MAILSURE_METRICS); undefined when they are off, and nothing is counted. */
  metrics?: Metrics;
  /** Stops the services and closes what the container opened (not the storage or Redis it was given). */
  close(): Promise<void>;
}

export interface ContainerOptions {
  /**
   * Names this process in list chunk leases; a name that survives a restart (serve's host and
   * port) lets a restarted process resume its own chunks at once instead of waiting for their
   * leases to run out.
   */
  worker?: string;
  /** Redis key prefix of the shared quota counts (default `mailsure:quota`; tests isolate themselves with it). */
  quotaNamespace?: string;
  /** False: lists submitted here wait in the store for `mailsure worker` processes. */
  runLists?: boolean;
  /** Stores opened by the caller (tests, tools): used instead of the configured database, left open. */
  storage?: Storage;
  /** A Redis client of the caller's, used as the configured one would be, left connected. */
  redis?: Redis;
  tuning?: ContainerTuning;
}

/** Timings a test shortens; the defaults are what a real server needs. */
export interface ContainerTuning {
  /** Wait before the greylisting retry. */
  greylistRetryMs?: number;
  /** How long a policy or client list's presence is believed (a real server notices within 5 s). */
  listPresenceTtlMs?: number;
  /** How long activity presence is believed, by verification and enrichment. */
  activityPresenceTtlMs?: number;
  health?: HealthTuning;
  /** The SMTP connection budget's window, cool-down and slow-down cost (default: a minute, 5 minutes, 4). */
  connectionBudget?: Partial<BudgetTuning>;
  /** How long the shared SMTP session pool keeps a session open after a real-time call's last RCPT, and what it keeps for a session after connecting (batch-prober.ts). */
  smtpPool?: SmtpPoolTuning;
  /** Scales the callback back-off (1 = a minute for the first retry). */
  callbackDelayScale?: number;
  /** Waits of rows a throttling provider holds back (default: 15 s doubling to 2 min, for MAILSURE_LIST_THROTTLE_HOLD_MINUTES). */
  listHoldBack?: Partial<HoldBackPolicy>;
  /** A list's first wait after a dependency did not answer (default 1 s, doubling up to 30 s). */
  listRetryMs?: number;
  /** Deadlines of every object-store call (default STORE_DEADLINES: a connection within 5 s, no silence over 30 s). */
  listStoreDeadlines?: { connectionTimeout: number; socketTimeout: number };
  /** The clock of enrichment's activity windows, when it is not the container's. */
  enrichmentClock?: Clock;
}

export async function createContainer(config: Config, logger: Logger, clock: Clock = systemClock, options: ContainerOptions = {}): Promise<Container> {
  const { storage: givenStorage, redis: givenRedis, tuning = {}, quotaNamespace, ...processing } = options;
  // The list files first: an object store that cannot be used stops the start before anything else opens.
  const listFiles = await createListFiles(config, logger, options.runLists ?? true, tuning.listStoreDeadlines);
  await listFiles.check().catch((error: unknown) => {
    listFiles.close();
    throw error;
  });
  // Redis before anything is built on it (issue 19, 8): wait for it, boundedly, or stop with one line.
  if (!givenRedis && config.redisUrl) {
    await waitForRedis(config.redisUrl, logger, config.redisStartWaitSeconds * 1000).catch((error: unknown) => {
      listFiles.close();
      throw error;
    });
  }
  const storage = givenStorage ?? (await openStorage({ ...storageOptionsOf(config), deadlines: DATABASE_DEADLINES }));
  // The verdict memory's own key, derived from the server secret (MAILSURE_SECRET_KEY or the data
  // directory's secret.key, which opening the storage has checked, or made, already).
  const memoryKey = config.verdictMemory
    ? verdictMemoryKey(
        await loadSecretKey(config.secretKey ?? undefined, config.dataDir).catch(async (error: unknown) => {
          listFiles.close();
          if (!givenStorage) await storage.close();
          throw error;
        }),
      )
    : undefined;
  const redis = givenRedis ?? (config.redisUrl ? connectRedis(config.redisUrl, logger) : null);
  const { enrichmentClock = clock, callbackDelayScale, listHoldBack, listRetryMs, ...verificationTuning } = tuning;
  const metrics = config.metrics ? createMetrics() : undefined;
  // With Redis every API process reserves against one count per key: the quota is exact across them.
  const shared = redis ? createRedisSharedQuota(redis, quotaNamespace) : undefined;
  const meter = createUsageMeter({ keys: storage.keys, usage: storage.usage, clock, ...(shared ? { shared } : {}) });
  const { verify, listVerify, health: proberHealth } = createVerification(config, storage, clock, logger, verificationTuning, redis ? { redis } : undefined, metrics, memoryKey);
  const people = createPeopleServices(storage, enrichmentClock, tuning.activityPresenceTtlMs !== undefined ? { activityPresenceTtlMs: tuning.activityPresenceTtlMs } : {});
  // Every list state change and callback is logged (and counted) here, whoever makes it.
  const listStore = observeListStore(storage.lists, { logger, clock, ...(metrics ? { metrics } : {}) });
  const lists = createListProcessing(config, { lists: listStore, keys: storage.keys, usage: storage.usage }, { verify: listVerify, ...people }, clock, logger, {
    ...processing,
    ...(callbackDelayScale !== undefined ? { callbackDelayScale } : {}),
    ...(listRetryMs !== undefined ? { retryMs: listRetryMs } : {}),
    holdBack: { ...DEFAULT_HOLD_BACK, totalMs: config.listThrottleHoldMinutes * 60_000, ...listHoldBack },
  }, listFiles.files);
  if (metrics) watchScrapeTimeGauges(metrics, { lists: storage.lists, queue: lists.queue, proberHealth, logger });
  return {
    config,
    logger,
    clock,
    storage,
    redis,
    authenticator: createKeyAuthenticator(storage.keys, clock),
    meter,
    verify,
    proberHealth,
    ...people,
    ...(metrics ? { metrics } : {}),
    lists: createListService({
      lists: listStore,
      queue: lists.queue,
      meter,
      clock,
      files: listFiles.files,
      listMaxBytes: config.listMaxBytes,
      allowPrivateTargets: config.allowPrivateTargets,
      limits: {
        uploadsPerKey: config.listUploadsPerKey,
        waitingPerKey: config.listWaitingPerKey,
        storedBytesPerKey: config.listMaxStoredBytes,
        retentionDays: config.retentionDays,
      },
    }),
    listQueue: lists.queue,
    listFiles: listFiles.files,
    ...(listFiles.ping ? { listStoreCheck: listFiles.ping } : {}),
    listCallbacks: lists.callbacks,
    async close() {
      proberHealth.stop();
      lists.callbacks.close();
      await lists.queue.close();
      listFiles.close();
      await meter.close().catch((error: unknown) => logger.error({ err: error }, 'could not flush usage'));
      if (!givenRedis) redis?.disconnect();
      if (!givenStorage) await storage.close();
    },
  };
}

/** Enrichment and identity over the people and activity stores, sharing one matcher. */
function createPeopleServices(
  storage: Pick<Storage, 'people' | 'activity'>,
  clock: Clock,
  tuning: { activityPresenceTtlMs?: number } = {},
): { enrich: EnrichService; append: AppendService } {
  const matcher = createIdentityMatcher({ people: storage.people });
  return {
    enrich: createEnrichService({ people: storage.people, activity: storage.activity, matcher: individualMatcher(matcher), clock, ...tuning }),
    append: createAppendService({ people: storage.people, matcher }),
  };
}

/**
 * Where lists' uploads and results live: the data directory (one machine, or a mount every
 * process shares), or an S3-compatible object store (MAILSURE_LIST_STORE), every process then
 * keeping only working copies in its own data directory.
 */
async function createListFiles(
  config: Pick<Config, 'dataDir' | 'listStore'>,
  logger: Logger,
  runLists: boolean,
  deadlines?: { connectionTimeout: number; socketTimeout: number },
): Promise<{ files: ListFiles; check(): Promise<void>; ping?(): Promise<void>; close(): void }> {
  if (!config.listStore) return { files: createDirectoryListFiles(config.dataDir), check: async () => undefined, close: () => undefined };
  // Loaded only when configured: the AWS SDK takes a while to import, and most processes never need it.
  const { openS3ListFiles } = await import('../storage/s3/open-s3-list-files.js');
  // A process that runs lists keeps what it received as its working copy; an API process does not.
  return openS3ListFiles(config.listStore, { dataDir: config.dataDir, keepReceivedUploads: runLists, logger, ...(deadlines ? { deadlines } : {}) });
}

/** The list pipeline over the same services as the real-time routes, with its in-process queue. */
function createListProcessing(
  config: Pick<Config, 'dataDir' | 'listStore' | 'allowPrivateTargets' | 'listWorkers' | 'listChunksPerKey' | 'redisUrl' | 'listThrottleHoldMinutes' | 'listStoreWaitMinutes'>,
  storage: Pick<Storage, 'lists' | 'keys' | 'usage'>,
  services: { verify: VerifyService; enrich: EnrichService; append: AppendService },
  clock: Clock,
  logger: Logger,
  tuning: { callbackDelayScale?: number; verifyTimeoutMs?: number; worker?: string; runLists?: boolean; holdBack?: HoldBackPolicy; retryMs?: number } = {},
  files: ListFiles,
): { queue: ListQueue; callbacks: CallbackSender } {
  const runLists = tuning.runLists ?? true;
  const callbacks = createCallbackSender({
    store: storage.lists,
    keys: storage.keys,
    clock,
    logger,
    allowPrivateTargets: config.allowPrivateTargets,
    ...(tuning.callbackDelayScale !== undefined ? { delayScale: tuning.callbackDelayScale } : {}),
    ...(tuning.worker ? { worker: tuning.worker } : {}),
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
      verifyTimeoutMs: tuning.verifyTimeoutMs ?? 10_000,
      ...(tuning.holdBack ? { holdBack: tuning.holdBack } : {}),
    },
    chunksInFlight: CHUNKS_PER_LIST,
    // Every list of this process shares MAILSURE_LIST_WORKERS × 4 chunk slots, round-robin between keys.
    gate: createFairGate({ total: config.listWorkers * CHUNKS_PER_LIST, perKey: config.listChunksPerKey }),
    onFinished: (list) => callbacks.send(list.id),
    // A locked or stalled database pauses a list; it never ends it in Error. An object store that
    // does not answer pauses it too, for at most MAILSURE_LIST_STORE_WAIT_MINUTES.
    isTransient: isDatabaseTimeout,
    storeWaitMs: config.listStoreWaitMinutes * 60_000,
    ...(tuning.retryMs !== undefined ? { transientRetryMs: tuning.retryMs } : {}),
    ...(tuning.worker ? { worker: tuning.worker } : {}),
  });
  if (config.redisUrl) {
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

/** Chunks one list works on at once. */
const CHUNKS_PER_LIST = 4;

/** Jobs a list gets on the Redis queue: how many workers may share one list. */
const LIST_SHARES = 4;

/**
 * A serving process's database waits: a query blocked on a lock fails after 5 s, one with no
 * answer at all after 30 s (a list's results step reads in batches well within that).
 */
export const DATABASE_DEADLINES = { lockMs: 5_000, queryMs: 30_000 };

/** Longest wait for one Redis command of the API path (the list queue has connections of its own). */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

export function connectRedis(url: string, logger: Logger): Redis {
  // Short timeouts: a rate-limit check must never hang a request on a sick Redis. A Redis that
  // keeps the connection open but stops answering (paused, overloaded) is caught only by a
  // command time-out; each user then falls back (the rate limit to its in-process insurance,
  // the fact caches to a miss, the session limit to this process's own).
  const redis = new Redis(url, { connectTimeout: 2_000, commandTimeout: REDIS_COMMAND_TIMEOUT_MS, maxRetriesPerRequest: 1, enableOfflineQueue: true });
  redis.on('error', (error) => logger.warn({ err: error }, 'redis error'));
  return redis;
}
