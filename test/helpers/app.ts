/** An app over the in-memory stores, assembled as `serve` assembles it, for inject() tests. */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { createKey, type CreatedKey, type KeyOptions } from '../../src/accounts/key-admin.js';
import type { UsageMeter } from '../../src/accounts/usage-meter.js';
import { assembleApp } from '../../src/wiring/http-app.js';
import { systemClock, type Clock } from '../../src/core/clock.js';
import type { AdminThrottle } from '../../src/http/admin-throttle.js';
import { createLogger, type Logger } from '../../src/core/logger.js';
import { createLifecycle, type Lifecycle } from '../../src/wiring/lifecycle.js';
import type { Storage } from '../../src/storage/interfaces.js';
import { openMemoryStorage } from '../../src/storage/open-storage.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VerdictRecorder } from '../../src/outcomes/verdict-record.js';
import { createContainer } from '../../src/wiring/container.js';
import type { HealthTuning } from '../../src/wiring/prober-health.js';
import type { SmtpPoolTuning } from '../../src/wiring/verification.js';
import type { ListQueue } from '../../src/lists/pipeline/list-queue.js';
import type { HoldBackPolicy } from '../../src/lists/pipeline/hold-back.js';
import type { CallbackSender } from '../../src/lists/pipeline/callback-sender.js';
import type { ListFiles } from '../../src/lists/list-files.js';
import { loadConfig } from '../../src/core/config.js';
import type { ProberHealth } from '../../src/verification/health/prober-health.js';
import type { BulkSlots } from '../../src/http/bulk-slots.js';
import type { OutcomePorts } from '../../src/outcomes/parse-outcomes.js';

export interface TestApp {
  app: FastifyInstance;
  storage: Storage;
  meter: UsageMeter;
  /** Every log line the app wrote. */
  logs: string[];
  /** The data directory (a fresh temporary one unless given). */
  dataDir: string;
  /** The list queue: `idle()` waits for submitted lists. */
  lists: ListQueue;
  /** Where lists' files live, as configured (the data directory or MAILSURE_LIST_STORE). */
  files: ListFiles;
  /** List callbacks: `resume()` is what `serve` calls at start. */
  callbacks: CallbackSender;
  /** Prober health: `start()` is what `serve` awaits before listening. */
  health: ProberHealth;
  /** What `serve` runs after listening: retention, resumes, the metrics listener (MAILSURE_METRICS). */
  lifecycle: Lifecycle;
  /** The record of verdicts for accuracy: `flush()` writes what was noted and reads which keys hold an outcome token. */
  recorder: VerdictRecorder;
  key(name: string, options?: KeyOptions): Promise<CreatedKey>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  storage?: Storage;
  redis?: Redis;
  rateLimitNamespace?: string;
  /** The bulk-call cap's counter (tests watch what it holds). */
  bulkSlots?: BulkSlots;
  /** The admin token's slowing, made over the app's logger (tests give it a clock they move). */
  adminThrottle?: (logger: Logger) => AdminThrottle;
  trustProxy?: boolean;
  /** MAILSURE_* variables for the verification pipeline (the test world's, or a depth). */
  env?: Record<string, string>;
  /** Wait before the greylisting retry (short in tests). */
  greylistRetryMs?: number;
  /**
   * The shared SMTP session pool's timings. Default here: a session QUITs as soon as nothing
   * waits (as a call's own session did), so a test that changes a server between calls talks to
   * the new one; tests of sessions kept for the next calls set `realTimeIdleMs`.
   */
  smtpPool?: SmtpPoolTuning;
  /** The enrichment clock (activity windows). */
  clock?: Clock;
  /** The clock of everything else (default the system clock): tests of dated fixtures stand at their date. */
  containerClock?: Clock;
  dataDir?: string;
  /** Scales the callback back-off (1 = a minute for the first retry). */
  callbackDelayScale?: number;
  /** Prober-health timings (short banner time-outs for tests of a filtered port). */
  health?: HealthTuning;
  /** Serve HTTPS with this pair once the test calls `app.listen` (as `serve` does). */
  https?: { key: Buffer; cert: Buffer };
  /** How lists hold back throttled rows (short in tests: asked again within about a second). */
  listHoldBack?: Partial<HoldBackPolicy>;
  /** A list's first wait after a dependency did not answer (default 1 s). */
  listRetryMs?: number;
  /** Deadlines of object-store calls (short in tests of a store that stops answering). */
  listStoreDeadlines?: { connectionTimeout: number; socketTimeout: number };
  /** False: an API process that runs no lists (`serve --no-worker`); they wait for another app's queue. */
  runLists?: boolean;
  /** Outcome ingestion's SNS certificate port (a test signer's), instead of HTTPS to Amazon. */
  outcomePorts?: OutcomePorts;
}

/** Throttled list rows are asked again after 100 ms, 200 ms, 400 ms, then left unknown. */
const TEST_HOLD_BACK: HoldBackPolicy = { firstWaitMs: 100, longestWaitMs: 400, totalMs: 1_500 };

export async function makeTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const storage = options.storage ?? openMemoryStorage();
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const logger = createLogger('info', sink);
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'mailsure-test-')));
  const config = loadConfig({
    MAILSURE_VERIFY_DEPTH: 'syntax',
    MAILSURE_DATA_DIR: dataDir,
    ...options.env,
    MAILSURE_TRUST_PROXY: options.trustProxy ? 'on' : 'off',
  });
  const container = await createContainer({
    config,
    logger,
    clock: options.containerClock ?? systemClock,
    storage,
    ...(options.redis ? { redis: options.redis } : {}),
    ...(options.runLists === false ? { runLists: false } : {}),
    ...(options.outcomePorts ? { outcomePorts: options.outcomePorts } : {}),
    ...(options.rateLimitNamespace ? { quotaNamespace: `${options.rateLimitNamespace}quota` } : {}),
    tuning: {
      greylistRetryMs: options.greylistRetryMs ?? 400,
      smtpPool: { realTimeIdleMs: 0, ...options.smtpPool },
      // Tests add list entries between calls; a real server notices within 5 s.
      listPresenceTtlMs: 0,
      activityPresenceTtlMs: 0,
      ...(options.health ? { health: options.health } : {}),
      callbackDelayScale: options.callbackDelayScale ?? 1,
      listHoldBack: { ...TEST_HOLD_BACK, ...options.listHoldBack },
      ...(options.listRetryMs !== undefined ? { listRetryMs: options.listRetryMs } : {}),
      ...(options.listStoreDeadlines ? { listStoreDeadlines: options.listStoreDeadlines } : {}),
      ...(options.clock ? { enrichmentClock: options.clock } : {}),
    },
  });
  const app = await assembleApp({
    container,
    ...(options.https ? { https: options.https } : {}),
    ...(options.rateLimitNamespace ? { rateLimitNamespace: options.rateLimitNamespace } : {}),
    ...(options.bulkSlots ? { bulkSlots: options.bulkSlots } : {}),
    ...(options.adminThrottle ? { adminThrottle: options.adminThrottle(logger) } : {}),
  });
  const lifecycle = createLifecycle({ container, runLists: options.runLists ?? true, app });
  return {
    app,
    storage,
    meter: container.meter,
    logs,
    dataDir,
    lists: container.listQueue,
    files: container.listFiles,
    callbacks: container.listCallbacks,
    health: container.proberHealth,
    lifecycle,
    recorder: container.recorder,
    key: (name, keyOptions = {}) => createKey(storage.keys, name, keyOptions),
    async close() {
      await lifecycle.stop();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
