/** An app over the in-memory stores, the way `serve` wires it, for inject() tests. */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { createKey, type CreatedKey, type KeyOptions } from '../../src/accounts/key-admin.js';
import { createKeyAuthenticator } from '../../src/accounts/key-authenticator.js';
import { createUsageMeter, type UsageMeter } from '../../src/accounts/usage-meter.js';
import { systemClock, type Clock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { buildApp } from '../../src/http/app.js';
import type { Storage } from '../../src/storage/interfaces.js';
import { openMemoryStorage } from '../../src/storage/open-storage.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createListProcessing, createPeopleServices, createVerification, listRouteDeps, type HealthTuning } from '../../src/container.js';
import type { ListQueue } from '../../src/lists/pipeline/list-queue.js';
import type { CallbackSender } from '../../src/lists/pipeline/callback-sender.js';
import { loadConfig } from '../../src/core/config.js';
import type { ProberHealth } from '../../src/verification/health/prober-health.js';
import { renderHealthBody } from '../../src/verification/health/render-health.js';

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
  /** List callbacks: `resume()` is what `serve` calls at start. */
  callbacks: CallbackSender;
  /** Prober health: `start()` is what `serve` awaits before listening. */
  health: ProberHealth;
  key(name: string, options?: KeyOptions): Promise<CreatedKey>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  storage?: Storage;
  redis?: Redis;
  rateLimitNamespace?: string;
  trustProxy?: boolean;
  /** MAILSURE_* variables for the verification pipeline (the test world's, or a depth). */
  env?: Record<string, string>;
  /** Wait before the greylisting retry (short in tests). */
  greylistRetryMs?: number;
  /** The enrichment clock (activity windows). */
  clock?: Clock;
  dataDir?: string;
  /** Scales the callback back-off (1 = a minute for the first retry). */
  callbackDelayScale?: number;
  /** Prober-health timings (short banner time-outs for tests of a filtered port). */
  health?: HealthTuning;
  /** Serve HTTPS with this pair once the test calls `app.listen` (as `serve` does). */
  https?: { key: Buffer; cert: Buffer };
}

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
  const meter = createUsageMeter({ keys: storage.keys, usage: storage.usage, clock: systemClock });
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'mailsure-test-')));
  const config = loadConfig({ MAILSURE_VERIFY_DEPTH: 'syntax', MAILSURE_DATA_DIR: dataDir, ...options.env });
  const clock = options.clock ?? systemClock;
  const { verify, health } = createVerification(config, storage, systemClock, logger, {
    greylistRetryMs: options.greylistRetryMs ?? 400,
    // Tests add list entries between calls; a real server notices within 5 s.
    listPresenceTtlMs: 0,
    activityPresenceTtlMs: 0,
    ...(options.health ? { health: options.health } : {}),
  });
  const people = createPeopleServices(storage, clock, { activityPresenceTtlMs: 0 });
  const lists = createListProcessing(config, storage, { verify, ...people }, clock, logger, { callbackDelayScale: options.callbackDelayScale ?? 1 });
  const app = await buildApp({
    logger,
    authenticator: createKeyAuthenticator(storage.keys, systemClock),
    meter,
    verify,
    ...people,
    lists: listRouteDeps({ config, storage, listQueue: lists.queue, listFiles: lists.files, clock }),
    redis: options.redis ?? null,
    ...(options.rateLimitNamespace ? { rateLimitNamespace: options.rateLimitNamespace } : {}),
    trustProxy: options.trustProxy ?? false,
    readiness: { database: () => storage.ping() },
    proberHealth: () => renderHealthBody(health.state(), config.verifyDepth === 'mailbox'),
    ...(options.https ? { serverOptions: { https: options.https } } : {}),
  });
  return {
    app,
    storage,
    meter,
    logs,
    dataDir,
    lists: lists.queue,
    callbacks: lists.callbacks,
    health,
    key: (name, keyOptions = {}) => createKey(storage.keys, name, keyOptions),
    async close() {
      health.stop();
      lists.callbacks.close();
      await lists.queue.close();
      await app.close();
      await meter.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
