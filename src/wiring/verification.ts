/**
 * The composition root's verification part: which DNS client, caches, probers, session limiter,
 * connection budget and verdict memory a process uses (in-process, or shared through Redis in
 * scale-out); prober health over the resolver is prober-health.ts's.
 */
import type { Redis } from 'ioredis';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { createEngagement } from '../enrichment/engagement.js';
import { type Metrics } from '../observability/metrics.js';
import { countMailRoute, observeCache, observeProbes, observeVerdicts } from '../observability/observed-verification.js';
import type { Storage } from '../storage/interfaces.js';
import { createMemoryConnectionBudget } from '../storage/memory/memory-connection-budget.js';
import { createRedisConnectionBudget } from '../storage/redis/redis-connection-budget.js';
import { createRedisFactCache } from '../storage/redis/redis-fact-cache.js';
import { createRedisHostLimiter } from '../storage/redis/redis-host-limiter.js';
import { createRedisVerdictStore } from '../storage/redis/redis-verdict-store.js';
import { misspeltLargeProvider, suggestCorrections } from '../verification/corrections/index.js';
import type { CatchAllFact } from '../verification/decide-mailbox.js';
import { createCachedDnsClient } from '../verification/dns/cached-dns-client.js';
import type { AddressAnswer, MailRoute } from '../verification/dns/mail-route.js';
import { createNodeDnsClient } from '../verification/dns/node-dns-client.js';
import { observeMailRoutes } from '../verification/dns/observed-dns-client.js';
import { createMemoryFactCache, type FactCache } from '../verification/fact-cache.js';
import { createBatchingProber, DEFAULT_SESSION_LIMITS, type BatchingProberOptions } from '../verification/smtp/batch-prober.js';
import type { BudgetTuning } from '../verification/smtp/connection-budget.js';
import type { ProberHealth } from '../verification/health/prober-health.js';
import type { EgressPool } from '../verification/smtp/egress-pool.js';
import { createHostLimiter } from '../verification/smtp/host-limiter.js';
import { profileSessionPlace } from '../verification/smtp/profile-limits.js';
import { SESSIONS_PER_HOST, type SmtpProber } from '../verification/smtp/prober.js';
import type { Lane } from '../verification/smtp/session-queue.js';
import { singleFlight } from '../verification/smtp/single-flight.js';
import type { Throttle } from '../verification/smtp/throttle.js';
import {
  createVerdictMemory,
  verdictMemoryGeneration,
  type RememberedVerdict,
  type VerdictMemory,
  type VerdictStore,
} from '../verification/verdict-memory.js';
import { createVerifyService, type VerifyDeps, type VerifyService } from '../verification/verify-service.js';
import { recordingVerdicts, type VerdictRecorder } from '../outcomes/verdict-record.js';
import { createProberHealthFor, egressPoolOf, type HealthTuning } from './prober-health.js';

/**
 * The verification pipeline as configured: DNS servers, SMTP identity and port, depth, SSRF rule.
 * With `shared` (Redis, in scale-out) the DNS answers, catch-all facts, per-host SMTP session
 * limit, per-provider connection budget and verdict memory are shared by every process;
 * otherwise each process keeps its own. The verdict memory needs its key (`memoryKey`,
 * verdictMemoryKey of the server secret) and MAILSURE_VERDICT_MEMORY on.
 */
export interface VerificationDeps {
  config: VerificationConfig;
  storage: Pick<Storage, 'policy' | 'clientLists' | 'activity' | 'outcomes'>;
  clock: Clock;
  logger?: Logger;
  tuning?: VerificationTuning;
  /** Redis in scale-out: the facts, limits, budget and verdict memory every process shares (`prefix` default `mailsure`). */
  shared?: { redis: Redis; prefix?: string };
  metrics?: Metrics;
  /** The verdict memory's key (verdictMemoryKey of the server secret); without it, no memory. */
  memoryKey?: Buffer;
  /** Notes every verdict a key is given, for accuracy from outcomes (outcomes/verdict-record.ts). */
  recorder?: VerdictRecorder;
}

/** Verification timings a test shortens (container.ts, ContainerTuning, says what each is). */
export interface VerificationTuning {
  greylistRetryMs?: number;
  listPresenceTtlMs?: number;
  activityPresenceTtlMs?: number;
  health?: HealthTuning;
  connectionBudget?: Partial<BudgetTuning>;
  smtpPool?: SmtpPoolTuning;
}

export interface Verification {
  /** Real-time calls' verification (their lane of the shared SMTP session pool). */
  verify: VerifyService;
  /** Lists' verification: the same pipeline in the list lane. */
  listVerify: VerifyService;
  health: ProberHealth;
  egresses: EgressPool;
}

export function createVerification(deps: VerificationDeps): Verification {
  const { config, storage, clock, logger, tuning = {}, shared, metrics, memoryKey, recorder } = deps;
  const { health: healthTuning, connectionBudget: budgetTuning = {}, smtpPool = {}, ...verifyTuning } = tuning;
  const prefix = shared?.prefix ?? 'mailsure';
  const cache = <V>(name: string): FactCache<V> => {
    const store = shared
      ? createRedisFactCache<V>(shared.redis, { namespace: `${prefix}:facts:${name}`, clock, ...(logger ? { logger } : {}) })
      : createMemoryFactCache<V>(clock);
    return metrics ? observeCache(store, metrics, name) : store;
  };
  const resolver = createNodeDnsClient(config.dnsServers);
  const egresses = egressPoolOf({ config, clock, ...(logger ? { logger } : {}), ...(metrics ? { metrics } : {}) });
  const health = createProberHealthFor({
    config,
    resolver,
    clock,
    ...(logger ? { logger } : {}),
    ...(healthTuning ? { tuning: healthTuning } : {}),
    pool: egresses,
  });
  const counted = metrics ? countMailRoute(metrics) : undefined;
  const dns = createCachedDnsClient(
    observeMailRoutes(resolver, (route) => (health.observeRoute(route), counted?.(route))),
    {
      routes: cache<MailRoute>('mx'),
      addresses: cache<AddressAnswer>('address'),
      nameServers: cache<string[]>('ns'),
    },
  );
  // One per-host session limit for both probers (and, in scale-out, every process): each host's
  // provider profile's sessions at once, counted per provider address set (profile-limits.ts).
  const limiter = shared
    ? createRedisHostLimiter(shared.redis, SESSIONS_PER_HOST, { prefix: `${prefix}:smtp-sessions`, ...(logger ? { logger } : {}) })
    : createHostLimiter(SESSIONS_PER_HOST);
  // One connection budget per provider and egress address for both probers (and every process).
  const budget = shared
    ? createRedisConnectionBudget(shared.redis, { keyPrefix: `${prefix}:smtp-budget`, ...budgetTuning, ...(logger ? { logger } : {}) })
    : createMemoryConnectionBudget(budgetTuning);
  const throttle: Throttle = {
    budget,
    ...(metrics
      ? {
          onThrottled: (provider: string) => metrics.smtpThrottled.inc({ provider }),
          onToken: (provider: string, egress: string) => metrics.smtpBudgetTokens.inc({ provider, egress }),
        }
      : {}),
  };
  const identity = {
    sessionPlace: profileSessionPlace,
    port: config.smtpPort,
    helo: config.smtpHelo,
    from: config.smtpFrom,
    egress: egresses.chooser,
    pool: egresses,
    observer: health,
    limiter,
    ...(config.smtpThrottle ? { throttle } : {}),
  };
  const observed = (prober: SmtpProber) => (metrics ? observeProbes(prober, metrics) : prober);
  // One pool of sessions per session place for real-time calls and lists alike: a call's probe
  // rides a session already open to its MX host, ahead of any list row waiting there.
  // Concurrent calls for one address share one probe (single flight), memory or not.
  const pool = singleFlight(observed(createBatchingProber({ ...identity, ...DEFAULT_SESSION_LIMITS, ...smtpPool })));
  const prober = inLane(pool, 'real-time');
  const batchProber = inLane(pool, 'list');
  const catchAll = cache<CatchAllFact>('catch-all');
  const memory = memoryKey
    ? verdictMemoryOf({ config, memoryKey, clock, logger, shared: shared ? { ...shared, prefix } : undefined, metrics })
    : undefined;
  const verifyDeps: Omit<VerifyDeps, 'prober'> = {
    depth: config.verifyDepth,
    dns,
    health,
    catchAll,
    policy: storage.policy,
    clientLists: storage.clientLists,
    outcomes: storage.outcomes,
    allowPrivateTargets: config.allowPrivateTargets,
    clock,
    suggestCorrections: (input) => suggestCorrections(input),
    misspeltLargeProvider,
    engagement: createEngagement(storage.activity, clock, tuning.activityPresenceTtlMs),
    ...(memory ? { memory } : {}),
    ...(logger ? { logger } : {}),
    ...verifyTuning,
  };
  const verifyWith = (probing: SmtpProber) => {
    const verifying = createVerifyService({ ...verifyDeps, prober: probing });
    const service = recorder ? recordingVerdicts(verifying, recorder) : verifying;
    return metrics ? observeVerdicts(service, metrics, config.verifyDepth) : service;
  };
  return { verify: verifyWith(prober), listVerify: verifyWith(batchProber), health, egresses };
}

export type VerificationConfig = Pick<
  Config,
  | 'verifyDepth'
  | 'smtpThrottle'
  | 'dnsServers'
  | 'smtpPort'
  | 'smtpHelo'
  | 'smtpFrom'
  | 'smtpProxy'
  | 'smtpEgresses'
  | 'smtpEgressRoutes'
  | 'allowPrivateTargets'
  | 'canaryDomains'
  | 'smtpEgressIp'
  | 'dnsblZones'
  | 'verdictMemory'
>;

/**
 * The verdict memory as configured (undefined when it is off): in this process, or in Redis under
 * its entry cap; its lookups counted as the fact caches' are (`cache="verdict-memory"`).
 */
function verdictMemoryOf({
  config,
  memoryKey,
  clock,
  logger,
  shared,
  metrics,
}: {
  config: Pick<VerificationConfig, 'verdictMemory'>;
  memoryKey: Buffer;
  clock: Clock;
  logger: Logger | undefined;
  shared: { redis: Redis; prefix: string } | undefined;
  metrics: Metrics | undefined;
}): VerdictMemory | undefined {
  const settings = config.verdictMemory;
  if (!settings) return undefined;
  const store: VerdictStore = shared
    ? createRedisVerdictStore(shared.redis, {
        namespace: `${shared.prefix}:verdicts`,
        maxEntries: settings.maxEntries,
        generation: verdictMemoryGeneration(memoryKey),
        clock,
        ...(logger ? { logger } : {}),
      })
    : createMemoryFactCache<RememberedVerdict>(clock, settings.maxEntries);
  const hours = (h: number) => h * 3_600_000;
  return createVerdictMemory(
    metrics ? observeCache(store, metrics, 'verdict-memory') : store,
    memoryKey,
    {
      ttlMs: { 50: hours(settings.validHours), 400: hours(settings.invalidHours), 410: hours(settings.fullHours) },
      scope: settings.scope,
    },
    clock,
  );
}

/** The shared session pool's timings a test may change (batch-prober.ts; the defaults are production's). */
export type SmtpPoolTuning = Partial<Pick<BatchingProberOptions, 'realTimeIdleMs' | 'reserveMs'>>;

/**
 * The pool as one lane's prober: real-time calls' probes go ahead of lists' in every shared
 * session. Each probe carries the key of the verification it serves (mailbox-stage.ts puts it
 * in the probe's options), for the per-key share. Not an AsyncLocalStorage: on Node 20 its first
 * use turns on promise hooks for the whole process, and every call paid for them.
 */
function inLane(pool: SmtpProber, lane: Lane): SmtpProber {
  return { probe: (target, recipients, deadline, options) => pool.probe(target, recipients, deadline, { ...options, lane }) };
}
