/**
 * The one way to make the Fastify app from a container: every route over the container's
 * services, `/readyz` checking the stores this process depends on and carrying the prober's
 * health. `serve`, the test helper and the benchmarks call it; `serve` then listens.
 */
import type { FastifyInstance } from 'fastify';
import type { Container } from './container.js';
import { buildApp } from '../http/app.js';
import { createAdminThrottle, type AdminThrottle } from '../http/admin-throttle.js';
import type { BulkSlots } from '../http/bulk-slots.js';
import { isDatabaseTimeout } from '../storage/postgres/open-postgres.js';
import { renderHealthBody } from '../verification/health/render-health.js';

export interface AssemblyOptions {
  /** The services and stores the routes run over. */
  container: Container;
  /** Serve HTTPS with this pair once the app listens (set by `serve` unless behind a proxy). */
  https?: { key: Buffer; cert: Buffer };
  /** Redis key prefix of the rate-limit counters (tests isolate themselves with it). */
  rateLimitNamespace?: string;
  /** The bulk-call cap's counter, instead of one made from the configuration (tests watch it). */
  bulkSlots?: BulkSlots;
  /** The admin token's slowing, instead of one on the container's clock (tests move its clock). */
  adminThrottle?: AdminThrottle;
}

export function assembleApp(options: AssemblyOptions): Promise<FastifyInstance> {
  const { container } = options;
  const { config, redis, storage, proberHealth } = container;
  return buildApp({
    logger: container.logger,
    authenticator: container.authenticator,
    meter: container.meter,
    verify: container.verify,
    enrich: container.enrich,
    append: container.append,
    lists: container.lists,
    outcomes: container.outcomes,
    ...(container.metrics ? { metrics: container.metrics } : {}),
    redis,
    ...(options.rateLimitNamespace ? { rateLimitNamespace: options.rateLimitNamespace } : {}),
    ...(options.bulkSlots ? { bulkSlots: options.bulkSlots } : {}),
    bulkCallsPerKey: config.bulkCallsPerKey,
    trustProxy: config.trustProxy,
    requestTimeoutMs: config.requestTimeoutSeconds * 1000,
    bodyTimeoutMs: config.bodyTimeoutSeconds * 1000,
    bodiesPerAddress: config.bodiesPerAddress,
    readiness: {
      database: () => storage.ping(),
      ...(redis ? { redis: async () => void (await redis.ping()) } : {}),
    },
    // A stalled database (a held lock, a paused server) answers 503, not 500 (error-handler.ts).
    isDependencyStall: isDatabaseTimeout,
    proberHealth: () => renderHealthBody(proberHealth.state(), config.verifyDepth === 'mailbox', proberHealth.egresses()),
    egresses: () => proberHealth.egresses(),
    ...(container.listStoreCheck ? { listStoreCheck: container.listStoreCheck } : {}),
    ...(config.adminToken
      ? {
          admin: {
            token: config.adminToken,
            throttle: options.adminThrottle ?? createAdminThrottle({ clock: container.clock, logger: container.logger }),
            keys: storage.keys,
            usage: storage.usage,
            outcomes: { store: storage.outcomes, clock: container.clock },
          },
        }
      : {}),
    ...(options.https ? { serverOptions: { https: options.https } } : {}),
  });
}
