/**
 * The verification pipeline's wiring, for the composition root (container.ts) and `mailsure
 * doctor`: which DNS client, caches, probers, session limiter and connection budget a process
 * uses (in-process, or shared through Redis in scale-out), and prober health over the resolver.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Redis } from 'ioredis';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { describeProxy } from '../core/socks-proxy-url.js';
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
import { createProberHealth, type ProberHealth, type ProberHealthDeps } from '../verification/health/prober-health.js';
import { checkBanner } from '../verification/smtp/banner-check.js';
import { createBatchingProber, DEFAULT_SESSION_LIMITS, type BatchingProberOptions } from '../verification/smtp/batch-prober.js';
import type { BudgetTuning } from '../verification/smtp/connection-budget.js';
import { egressLabel, type SmtpEgress } from '../verification/smtp/egress.js';
import type { ConcernHealth } from '../verification/health/health-state.js';
import { checkEgress, checkResolver } from '../verification/health/run-checks.js';
import { createEgressPool, type EgressPool, type EgressStatus } from '../verification/smtp/egress-pool.js';
import { profileForHost } from '../verification/providers/index.js';
import { createHostLimiter } from '../verification/smtp/host-limiter.js';
import { profileSessionPlace } from '../verification/smtp/profile-limits.js';
import { SESSIONS_PER_HOST, type SmtpProber } from '../verification/smtp/prober.js';
import type { Lane } from '../verification/smtp/session-queue.js';
import { singleFlight } from '../verification/smtp/single-flight.js';
import type { Throttle } from '../verification/smtp/throttle.js';
import { createVerdictMemory, verdictMemoryGeneration, type RememberedVerdict, type VerdictMemory, type VerdictStore } from '../verification/verdict-memory.js';
import { createVerifyService, type VerifyDeps, type VerifyService } from '../verification/verify-service.js';

/**
 * The verification pipeline as configured: DNS servers, SMTP identity and port, depth, SSRF rule.
 * With `shared` (Redis, in scale-out) the DNS answers, catch-all facts, per-host SMTP session
 * limit, per-provider connection budget and verdict memory are shared by every process;
 * otherwise each process keeps its own. The verdict memory needs its key (`memoryKey`,
 * verdictMemoryKey of the server secret) and MAILSURE_VERDICT_MEMORY on.
 */
export function createVerification(
  config: VerificationConfig,
  storage: Pick<Storage, 'policy' | 'clientLists' | 'activity'>,
  clock: Clock,
  logger?: Logger,
  tuning: { greylistRetryMs?: number; listPresenceTtlMs?: number; activityPresenceTtlMs?: number; health?: HealthTuning; connectionBudget?: Partial<BudgetTuning>; smtpPool?: SmtpPoolTuning } = {},
  shared?: { redis: Redis; prefix?: string },
  metrics?: Metrics,
  memoryKey?: Buffer,
): { verify: VerifyService; listVerify: VerifyService; health: ProberHealth; egresses: EgressPool } {
  const { health: healthTuning, connectionBudget: budgetTuning = {}, smtpPool = {}, ...verifyTuning } = tuning;
  const prefix = shared?.prefix ?? 'mailsure';
  const cache = <V>(name: string): FactCache<V> => {
    const store = shared
      ? createRedisFactCache<V>(shared.redis, { namespace: `${prefix}:facts:${name}`, clock, ...(logger ? { logger } : {}) })
      : createMemoryFactCache<V>(clock);
    return metrics ? observeCache(store, metrics, name) : store;
  };
  const resolver = createNodeDnsClient(config.dnsServers);
  const egresses = egressPoolOf(config, clock, logger, metrics);
  const health = createProberHealthFor(config, resolver, clock, logger, healthTuning, egresses);
  const counted = metrics ? countMailRoute(metrics) : undefined;
  const dns = createCachedDnsClient(observeMailRoutes(resolver, (route) => (health.observeRoute(route), counted?.(route))), {
    routes: cache<MailRoute>('mx'),
    addresses: cache<AddressAnswer>('address'),
    nameServers: cache<string[]>('ns'),
  });
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
      ? { onThrottled: (provider: string) => metrics.smtpThrottled.inc({ provider }), onToken: (provider: string, egress: string) => metrics.smtpBudgetTokens.inc({ provider, egress }) }
      : {}),
  };
  const identity = { sessionPlace: profileSessionPlace, port: config.smtpPort, helo: config.smtpHelo, from: config.smtpFrom, egress: egresses.chooser, pool: egresses, observer: health, limiter, ...(config.smtpThrottle ? { throttle } : {}) };
  const observed = (prober: SmtpProber) => (metrics ? observeProbes(prober, metrics) : prober);
  // One pool of sessions per session place for real-time calls and lists alike: a call's probe
  // rides a session already open to its MX host, ahead of any list row waiting there.
  // Concurrent calls for one address share one probe (single flight), memory or not.
  const pool = singleFlight(observed(createBatchingProber({ ...identity, ...DEFAULT_SESSION_LIMITS, ...smtpPool })));
  const prober = inLane(pool, 'real-time');
  const batchProber = inLane(pool, 'list');
  const catchAll = cache<CatchAllFact>('catch-all');
  const memory = memoryKey ? verdictMemoryOf(config, memoryKey, clock, logger, shared ? { ...shared, prefix } : undefined, metrics) : undefined;
  const verifyDeps: Omit<VerifyDeps, 'prober'> = {
    depth: config.verifyDepth,
    dns,
    health,
    catchAll,
    policy: storage.policy,
    clientLists: storage.clientLists,
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
    const service = withProbeKey(createVerifyService({ ...verifyDeps, prober: probing }));
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
function verdictMemoryOf(
  config: Pick<VerificationConfig, 'verdictMemory'>,
  memoryKey: Buffer,
  clock: Clock,
  logger: Logger | undefined,
  shared: { redis: Redis; prefix: string } | undefined,
  metrics: Metrics | undefined,
): VerdictMemory | undefined {
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
  return createVerdictMemory(metrics ? observeCache(store, metrics, 'verdict-memory') : store, memoryKey, {
    ttlMs: { 50: hours(settings.validHours), 400: hours(settings.invalidHours), 410: hours(settings.fullHours) },
    scope: settings.scope,
  }, clock);
}

/** The shared session pool's timings a test may change (batch-prober.ts; the defaults are production's). */
export type SmtpPoolTuning = Partial<Pick<BatchingProberOptions, 'realTimeIdleMs' | 'reserveMs'>>;

/**
 * The pool as one lane's prober: real-time calls' probes go ahead of lists' in every shared
 * session, each probe carrying the key of the verification it serves (the per-key share).
 */
function inLane(pool: SmtpProber, lane: Lane): SmtpProber {
  return {
    probe: (target, recipients, deadline, options) => {
      const key = probingFor.getStore();
      return pool.probe(target, recipients, deadline, { ...options, lane, ...(key !== undefined ? { key } : {}) });
    },
  };
}

/** The key a verification runs for, seen by its probes without threading it through every stage. */
const probingFor = new AsyncLocalStorage<number | undefined>();

/** A verify service whose probes know the caller's key. */
function withProbeKey(service: VerifyService): VerifyService {
  return { verify: (input, options) => probingFor.run(options.key?.id, () => service.verify(input, options)) };
}

/**
 * How probes leave: the egress pool of the configuration (one egress, direct or the one proxy,
 * unless the operator listed more), each under its label, its own HELO name where one is set,
 * providers routed where MAILSURE_SMTP_EGRESS_ROUTES says. An egress going out of or back into
 * rotation is counted in `mailsure_smtp_egress_healthy`.
 */
export function egressPoolOf(config: Pick<VerificationConfig, 'smtpHelo' | 'smtpEgresses' | 'smtpEgressRoutes'>, clock?: Clock, logger?: Logger, metrics?: Metrics): EgressPool {
  const egresses: SmtpEgress[] = config.smtpEgresses.map((setting) => ({
    label: setting.label,
    helo: setting.helo ?? config.smtpHelo,
    ...(setting.proxy ? { proxy: setting.proxy } : {}),
    ...(setting.sourceAddress ? { localAddress: setting.sourceAddress } : {}),
  }));
  const pool = createEgressPool(egresses, {
    providerOf: (host) => {
      const profile = profileForHost(host);
      return profile.kind === 'default' ? undefined : profile.id;
    },
    routes: config.smtpEgressRoutes,
    ...(clock ? { now: () => clock.now() } : {}),
    ...(logger ? { logger } : {}),
    ...(metrics ? { onChange: (status: EgressStatus) => metrics.smtpEgressHealthy.set({ egress: status.label }, status.healthy ? 1 : 0) } : {}),
  });
  if (metrics) for (const status of pool.status()) metrics.smtpEgressHealthy.set({ egress: status.label }, 1);
  return pool;
}

/**
 * Each egress of the pool checked on its own (the doctor): the canaries' MX banners through it,
 * as the egress check does through the pool's choice. Labels and kinds only, never addresses.
 */
export async function checkEachEgress(config: VerificationConfig, resolver: ReturnType<typeof createNodeDnsClient>, pool: EgressPool, tuning: HealthTuning = {}): Promise<(EgressStatus & { check: ConcernHealth })[]> {
  const { connectTimeoutMs = 5_000, bannerTimeoutMs = 10_000 } = tuning;
  const now = () => Date.now();
  const base = {
    dns: resolver,
    canaries: config.canaryDomains,
    smtpPort: config.smtpPort,
    helo: config.smtpHelo,
    blocklistZones: config.dnsblZones,
    allowPrivateTargets: config.allowPrivateTargets,
  };
  const { routes } = await checkResolver({ ...base, banner: async () => ({ host: '', address: '', outcome: 'refused' }) }, now);
  return Promise.all(
    pool.egresses.map(async (egress, index) => {
      const { proxy, localAddress } = egress;
      const check = await checkEgress(
        { ...base, banner: (host, address) => checkBanner(host, address, { port: config.smtpPort, connectTimeoutMs, timeoutMs: bannerTimeoutMs, ...(proxy ? { proxy } : {}), ...(localAddress ? { localAddress } : {}) }) },
        routes,
        now,
      );
      // Proxy addresses in the evidence are replaced by the label.
      const evidence = check.evidence.map((line) => (proxy ? line.split(describeProxy(proxy)).join(egressLabel(egress)) : line));
      return { ...pool.status()[index]!, check: { ...check, evidence } };
    }),
  );
}

/** Prober-health timings a test may shorten; the defaults are what a real network needs. */
export type HealthTuning = Partial<Pick<ProberHealthDeps, 'intervalMs' | 'troubledIntervalMs' | 'recheckMinMs' | 'egressConfirmMs' | 'resolverConfirmMs'>> & {
  /** Connect and banner time-out of the egress check (default 5 s and 10 s). */
  connectTimeoutMs?: number;
  bannerTimeoutMs?: number;
};

/** Prober health over the resolver itself (no cache: a check must see what the resolver says now). */
export function createProberHealthFor(
  config: VerificationConfig,
  resolver: ReturnType<typeof createNodeDnsClient>,
  clock: Clock,
  logger?: Logger,
  tuning: HealthTuning = {},
  pool: EgressPool = egressPoolOf(config, clock, logger),
): ProberHealth {
  const { connectTimeoutMs = 5_000, bannerTimeoutMs = 10_000, ...timings } = tuning;
  // The check goes out the way a probe to the same host would: same pool, same proxy or source
  // address. An egress whose way out fails is taken out of rotation and the next one tried, so
  // one dead proxy of several does not fail the whole SMTP egress concern.
  const bannerThrough = (egress: SmtpEgress, host: string, address: string) => {
    const { proxy, localAddress } = egress;
    return checkBanner(host, address, { port: config.smtpPort, connectTimeoutMs, timeoutMs: bannerTimeoutMs, ...(proxy ? { proxy } : {}), ...(localAddress ? { localAddress } : {}) });
  };
  return createProberHealth({
    egresses: () => pool.status(),
    depth: config.verifyDepth,
    clock,
    ...(logger ? { logger } : {}),
    ...timings,
    checks: {
      dns: resolver,
      banner: async (host, address) => {
        const several = pool.egresses.length > 1;
        const order = new Set([pool.chooser(host), ...pool.usable(host)]);
        let check: Awaited<ReturnType<typeof checkBanner>> | undefined;
        for (const egress of order) {
          check = await bannerThrough(egress, host, address);
          // With several egresses, evidence names the egress by its label, not its proxy.
          if (several) check = { ...check, via: egressLabel(egress) };
          // A banner through it proves the egress works: back in rotation at once.
          if (check.outcome === 'banner' || check.outcome === 'banner-reject') pool.worked(egress);
          if (check.outcome !== 'proxy-failed' || !several) return check;
          pool.failed(egress, check.text ?? 'the proxy failed');
        }
        return check!;
      },
      ...(config.smtpProxy && pool.egresses.length === 1 ? { via: describeProxy(config.smtpProxy) } : {}),
      canaries: config.canaryDomains,
      smtpPort: config.smtpPort,
      helo: config.smtpHelo,
      from: config.smtpFrom,
      ...(config.smtpEgressIp ? { egressIp: config.smtpEgressIp } : {}),
      blocklistZones: config.dnsblZones,
      allowPrivateTargets: config.allowPrivateTargets,
    },
  });
}
