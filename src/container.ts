/**
 * The composition root: configuration in, wired services out. The only place that decides which
 * implementation of a store or limiter a process uses.
 */
import { Redis } from 'ioredis';
import { createKeyAuthenticator, type KeyAuthenticator } from './accounts/key-authenticator.js';
import { createUsageMeter, type UsageMeter } from './accounts/usage-meter.js';
import { systemClock, type Clock } from './core/clock.js';
import type { Config } from './core/config.js';
import type { Logger } from './core/logger.js';
import type { Storage } from './storage/interfaces.js';
import { openStorage } from './storage/open-storage.js';
import { createEnrichService, createExactMatcher, type EnrichService } from './enrichment/enrich-service.js';
import { createEngagement } from './enrichment/engagement.js';
import { suggestCorrections } from './verification/corrections/index.js';
import type { CatchAllFact } from './verification/decide-mailbox.js';
import { createCachedDnsClient } from './verification/dns/cached-dns-client.js';
import type { AddressAnswer, MailRoute } from './verification/dns/mail-route.js';
import { createNodeDnsClient } from './verification/dns/node-dns-client.js';
import { createMemoryFactCache } from './verification/fact-cache.js';
import { createSmtpProber } from './verification/smtp/prober.js';
import { createVerifyService, type VerifyService } from './verification/verify-service.js';

export interface Container {
  config: Config;
  logger: Logger;
  clock: Clock;
  storage: Storage;
  redis: Redis | null;
  authenticator: KeyAuthenticator;
  meter: UsageMeter;
  verify: VerifyService;
  enrich: EnrichService;
  close(): Promise<void>;
}

export async function createContainer(config: Config, logger: Logger, clock: Clock = systemClock): Promise<Container> {
  const storage = await openStorage({ databaseUrl: config.databaseUrl ?? undefined, dataDir: config.dataDir });
  const redis = config.redisUrl ? connectRedis(config.redisUrl, logger) : null;
  const meter = createUsageMeter({ keys: storage.keys, usage: storage.usage, clock });
  return {
    config,
    logger,
    clock,
    storage,
    redis,
    authenticator: createKeyAuthenticator(storage.keys, clock),
    meter,
    verify: createVerification(config, storage, clock, logger),
    enrich: createEnrichService({ people: storage.people, activity: storage.activity, matcher: createExactMatcher(storage.people), clock }),
    async close() {
      await meter.close().catch((error: unknown) => logger.error({ err: error }, 'could not flush usage'));
      redis?.disconnect();
      await storage.close();
    },
  };
}

/** The verification pipeline as configured: DNS servers, SMTP identity and port, depth, SSRF rule. */
export function createVerification(
  config: Pick<Config, 'verifyDepth' | 'dnsServers' | 'smtpPort' | 'smtpHelo' | 'smtpFrom' | 'allowPrivateTargets'>,
  storage: Pick<Storage, 'policy' | 'clientLists' | 'activity'>,
  clock: Clock,
  logger?: Logger,
  tuning: { greylistRetryMs?: number; listPresenceTtlMs?: number; activityPresenceTtlMs?: number } = {},
): VerifyService {
  const dns = createCachedDnsClient(createNodeDnsClient(config.dnsServers), {
    routes: createMemoryFactCache<MailRoute>(clock),
    addresses: createMemoryFactCache<AddressAnswer>(clock),
    nameServers: createMemoryFactCache<string[]>(clock),
  });
  return createVerifyService({
    depth: config.verifyDepth,
    dns,
    prober: createSmtpProber({ port: config.smtpPort, helo: config.smtpHelo, from: config.smtpFrom }),
    catchAll: createMemoryFactCache<CatchAllFact>(clock),
    policy: storage.policy,
    clientLists: storage.clientLists,
    allowPrivateTargets: config.allowPrivateTargets,
    clock,
    suggestCorrections: (input) => suggestCorrections(input),
    engagement: createEngagement(storage.activity, clock, tuning.activityPresenceTtlMs),
    ...(logger ? { logger } : {}),
    ...tuning,
  });
}

export function connectRedis(url: string, logger: Logger): Redis {
  // Short timeouts: a rate-limit check must never hang a request on a sick Redis.
  const redis = new Redis(url, { connectTimeout: 2_000, maxRetriesPerRequest: 1, enableOfflineQueue: true });
  redis.on('error', (error) => logger.warn({ err: error }, 'redis error'));
  return redis;
}
