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
import { createVerification } from '../../src/container.js';
import { createEnrichService, createExactMatcher } from '../../src/enrichment/enrich-service.js';
import { loadConfig } from '../../src/core/config.js';

export interface TestApp {
  app: FastifyInstance;
  storage: Storage;
  meter: UsageMeter;
  /** Every log line the app wrote. */
  logs: string[];
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
  const app = await buildApp({
    logger,
    authenticator: createKeyAuthenticator(storage.keys, systemClock),
    meter,
    verify: createVerification(loadConfig({ MAILSURE_VERIFY_DEPTH: 'syntax', ...options.env }), storage, systemClock, logger, {
      greylistRetryMs: options.greylistRetryMs ?? 400,
      // Tests add list entries between calls; a real server notices within 5 s.
      listPresenceTtlMs: 0,
      activityPresenceTtlMs: 0,
    }),
    enrich: createEnrichService({
      people: storage.people,
      activity: storage.activity,
      matcher: createExactMatcher(storage.people),
      clock: options.clock ?? systemClock,
      activityPresenceTtlMs: 0,
    }),
    redis: options.redis ?? null,
    ...(options.rateLimitNamespace ? { rateLimitNamespace: options.rateLimitNamespace } : {}),
    trustProxy: options.trustProxy ?? false,
    readiness: { database: () => storage.ping() },
  });
  return {
    app,
    storage,
    meter,
    logs,
    key: (name, keyOptions = {}) => createKey(storage.keys, name, keyOptions),
    async close() {
      await app.close();
      await meter.close();
    },
  };
}
