/**
 * The composition root: configuration in, wired services out. The only place that decides which
 * implementation of a store or limiter a process uses; its parts by role beside it (stores.ts,
 * redis.ts, verification.ts, prober-health.ts, lists.ts, outcomes.ts), the HTTP app (http-app.ts) and the
 * start and stop of a long-running process (lifecycle.ts).
 */
import type { Redis } from 'ioredis';
import { createKeyAuthenticator, type KeyAuthenticator } from '../accounts/key-authenticator.js';
import { createUsageMeter, type UsageMeter } from '../accounts/usage-meter.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { createEnrichService, type EnrichService } from '../enrichment/enrich-service.js';
import { createAppendService, individualMatcher, type AppendService } from '../identity/append/index.js';
import { createIdentityMatcher } from '../identity/match/index.js';
import type { ListFiles } from '../lists/list-files.js';
import type { ListService } from '../lists/list-service.js';
import type { CallbackSender } from '../lists/pipeline/callback-sender.js';
import { DEFAULT_HOLD_BACK, type HoldBackPolicy } from '../lists/pipeline/hold-back.js';
import type { ListQueue } from '../lists/pipeline/list-queue.js';
import { createMetrics, type Metrics } from '../observability/metrics.js';
import { observeListStore } from '../observability/observed-list-store.js';
import { observeOutcomeIngest, watchOutcomeAccuracy } from '../observability/observed-outcomes.js';
import { watchScrapeTimeGauges } from '../observability/scrape-time-gauges.js';
import type { Storage } from '../storage/interfaces.js';
import { createRedisSharedQuota } from '../storage/redis/redis-shared-quota.js';
import { waitForRedis } from '../storage/redis/wait-for-redis.js';
import { loadSecretKey } from '../storage/secret-box.js';
import type { ProberHealth } from '../verification/health/prober-health.js';
import type { BudgetTuning } from '../verification/smtp/connection-budget.js';
import { verdictMemoryKey } from '../verification/verdict-memory.js';
import type { VerifyService } from '../verification/verify-service.js';
import { createLists } from './lists.js';
import { classifyOutcome } from '../outcomes/classify.js';
import type { OutcomeIngest } from '../outcomes/ingest-outcomes.js';
import type { OutcomePorts } from '../outcomes/parse-outcomes.js';
import { createVerdictRecorder, verdictIdOf, verdictRecordKey, type VerdictRecorder } from '../outcomes/verdict-record.js';
import { createOutcomeIngestFor } from './outcomes.js';
import type { HealthTuning } from './prober-health.js';
import { connectRedis } from './redis.js';
import { blockingRefreshLine, openListFiles, openStores } from './stores.js';
import { createVerification, type SmtpPoolTuning } from './verification.js';

/** How often noted verdicts are written. */
const RECORDER_FLUSH_MS = 1_000;

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
  /** Notes each verdict given to a key (flushed every second and at close): the join of accuracy. */
  recorder: VerdictRecorder;
  /** ESP outcome webhooks (POST /v5/outcomes/{token}/{source}): parsed, checked, applied per key. */
  outcomes: OutcomeIngest;
  /** Stops the services and closes what the container opened (not the storage or Redis it was given). */
  close(): Promise<void>;
}

export interface ContainerOptions {
  config: Config;
  logger: Logger;
  /** Default the system clock. */
  clock?: Clock;
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
  /** Outcome ingestion's outbound port (SNS certificates), instead of HTTPS to Amazon (tests). */
  outcomePorts?: OutcomePorts;
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

export async function createContainer(options: ContainerOptions): Promise<Container> {
  const {
    config,
    logger,
    clock = systemClock,
    storage: givenStorage,
    redis: givenRedis,
    tuning = {},
    quotaNamespace,
    worker,
    runLists = true,
    outcomePorts,
  } = options;
  // The list files first: an object store that cannot be used stops the start before anything else opens.
  const listFiles = await openListFiles({
    config,
    keepReceivedUploads: runLists,
    logger,
    ...(tuning.listStoreDeadlines ? { deadlines: tuning.listStoreDeadlines } : {}),
  });
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
  const storage =
    givenStorage ??
    (await openStores({
      config,
      serving: true,
      onBlockingRefreshed: (r) =>
        logger.info({ from: r.from, to: r.to, scanned: r.scanned, rewritten: r.rewritten }, blockingRefreshLine(r)),
    }));
  // The verdict memory's own key, derived from the server secret (MAILSURE_SECRET_KEY or the data
  // directory's secret.key, which opening the storage has checked, or made, already).
  const serverSecret = await loadSecretKey(config.secretKey ?? undefined, config.dataDir).catch(async (error: unknown) => {
    listFiles.close();
    if (!givenStorage) await storage.close();
    throw error;
  });
  const memoryKey = config.verdictMemory ? verdictMemoryKey(serverSecret) : undefined;
  // Every verdict a key gets, kept by HMAC id for joining the outcomes its ESP reports later (accuracy).
  const verdictIds = verdictIdOf(verdictRecordKey(serverSecret));
  // Only keys holding an outcome ingestion token are recorded (no outcome can meet another's verdict).
  const recorder = createVerdictRecorder(storage.verdictRecords, verdictIds, clock, logger, () => storage.outcomeKeys.keysWithToken());
  await recorder.flush();
  const recorderFlush = setInterval(() => void recorder.flush(), RECORDER_FLUSH_MS);
  recorderFlush.unref();
  const redis = givenRedis ?? (config.redisUrl ? connectRedis(config.redisUrl, logger) : null);
  const {
    enrichmentClock = clock,
    callbackDelayScale,
    listHoldBack,
    listRetryMs,
    listStoreDeadlines: _deadlines,
    ...verificationTuning
  } = tuning;
  const metrics = config.metrics ? createMetrics() : undefined;
  // With Redis every API process reserves against one count per key: the quota is exact across them.
  const shared = redis ? createRedisSharedQuota(redis, quotaNamespace) : undefined;
  const meter = createUsageMeter({ keys: storage.keys, usage: storage.usage, clock, ...(shared ? { shared } : {}) });
  const {
    verify,
    listVerify,
    health: proberHealth,
  } = createVerification({
    config,
    storage,
    clock,
    logger,
    tuning: verificationTuning,
    ...(redis ? { shared: { redis } } : {}),
    ...(metrics ? { metrics } : {}),
    ...(memoryKey ? { memoryKey } : {}),
    recorder,
  });
  const people = createPeopleServices({
    storage,
    clock: enrichmentClock,
    ...(tuning.activityPresenceTtlMs !== undefined ? { activityPresenceTtlMs: tuning.activityPresenceTtlMs } : {}),
  });
  // Every list state change and callback is logged (and counted) here, whoever makes it.
  const listStore = observeListStore(storage.lists, { logger, clock, ...(metrics ? { metrics } : {}) });
  const lists = await createLists({
    config,
    storage: { lists: listStore, keys: storage.keys, usage: storage.usage },
    services: { verify: listVerify, ...people },
    meter,
    files: listFiles.files,
    clock,
    logger,
    runLists,
    ...(worker ? { worker } : {}),
    ...(callbackDelayScale !== undefined ? { callbackDelayScale } : {}),
    ...(listRetryMs !== undefined ? { retryMs: listRetryMs } : {}),
    holdBack: { ...DEFAULT_HOLD_BACK, totalMs: config.listThrottleHoldMinutes * 60_000, ...listHoldBack },
  });
  const ingest = createOutcomeIngestFor({
    storage,
    clock,
    logger,
    verdictIdOf: verdictIds,
    ...(outcomePorts ? { ports: outcomePorts } : {}),
  });
  const outcomes = metrics ? observeOutcomeIngest(ingest, metrics, classifyOutcome) : ingest;
  if (metrics) {
    watchScrapeTimeGauges(metrics, { lists: storage.lists, queue: lists.queue, proberHealth, logger });
    watchOutcomeAccuracy(metrics, { outcomes: storage.outcomes, clock, logger });
  }
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
    lists: lists.service,
    listQueue: lists.queue,
    listFiles: listFiles.files,
    ...(listFiles.ping ? { listStoreCheck: listFiles.ping } : {}),
    listCallbacks: lists.callbacks,
    recorder,
    outcomes,
    async close() {
      clearInterval(recorderFlush);
      await recorder.flush();
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
function createPeopleServices({
  storage,
  clock,
  ...tuning
}: {
  storage: Pick<Storage, 'people' | 'activity'>;
  clock: Clock;
  activityPresenceTtlMs?: number;
}): { enrich: EnrichService; append: AppendService } {
  const matcher = createIdentityMatcher({ people: storage.people });
  return {
    enrich: createEnrichService({
      people: storage.people,
      activity: storage.activity,
      matcher: individualMatcher(matcher),
      clock,
      ...tuning,
    }),
    append: createAppendService({ people: storage.people, matcher }),
  };
}
