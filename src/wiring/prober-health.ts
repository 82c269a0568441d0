/**
 * The composition root's prober-health part, for the container and `mailsure doctor`: the SMTP
 * egress pool as configured, prober health over the resolver and that pool, and each egress
 * checked on its own.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { describeProxy } from '../core/socks-proxy-url.js';
import type { Metrics } from '../observability/metrics.js';
import { createNodeDnsClient } from '../verification/dns/node-dns-client.js';
import type { ConcernHealth } from '../verification/health/health-state.js';
import { createProberHealth, type ProberHealth, type ProberHealthDeps } from '../verification/health/prober-health.js';
import { checkEgress, checkResolver } from '../verification/health/run-checks.js';
import { profileForHost } from '../verification/providers/index.js';
import { checkBanner } from '../verification/smtp/banner-check.js';
import { egressLabel, type SmtpEgress } from '../verification/smtp/egress.js';
import { createEgressPool, type EgressPool, type EgressStatus } from '../verification/smtp/egress-pool.js';
import type { VerificationConfig } from './verification.js';

/**
 * How probes leave: the egress pool of the configuration (one egress, direct or the one proxy,
 * unless the operator listed more), each under its label, its own HELO name where one is set,
 * providers routed where MAILSURE_SMTP_EGRESS_ROUTES says. An egress going out of or back into
 * rotation is counted in `mailsure_smtp_egress_healthy`.
 */
export interface EgressPoolDeps {
  config: Pick<VerificationConfig, 'smtpHelo' | 'smtpEgresses' | 'smtpEgressRoutes'>;
  /** The clock of the pool's back-off; default the system's. */
  clock?: Clock;
  logger?: Logger;
  metrics?: Metrics;
}

export function egressPoolOf({ config, clock, logger, metrics }: EgressPoolDeps): EgressPool {
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
    ...(metrics
      ? { onChange: (status: EgressStatus) => metrics.smtpEgressHealthy.set({ egress: status.label }, status.healthy ? 1 : 0) }
      : {}),
  });
  if (metrics) for (const status of pool.status()) metrics.smtpEgressHealthy.set({ egress: status.label }, 1);
  return pool;
}

/**
 * Each egress of the pool checked on its own (the doctor): the canaries' MX banners through it,
 * as the egress check does through the pool's choice. Labels and kinds only, never addresses.
 */
export async function checkEachEgress({
  config,
  resolver,
  pool,
  tuning = {},
}: Omit<ProberHealthForDeps, 'clock' | 'logger'> & { pool: EgressPool }): Promise<(EgressStatus & { check: ConcernHealth })[]> {
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
        {
          ...base,
          banner: (host, address) =>
            checkBanner(host, address, {
              port: config.smtpPort,
              connectTimeoutMs,
              timeoutMs: bannerTimeoutMs,
              ...(proxy ? { proxy } : {}),
              ...(localAddress ? { localAddress } : {}),
            }),
        },
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
export type HealthTuning = Partial<
  Pick<ProberHealthDeps, 'intervalMs' | 'troubledIntervalMs' | 'recheckMinMs' | 'egressConfirmMs' | 'resolverConfirmMs'>
> & {
  /** Connect and banner time-out of the egress check (default 5 s and 10 s). */
  connectTimeoutMs?: number;
  bannerTimeoutMs?: number;
};

/** Prober health over the resolver itself (no cache: a check must see what the resolver says now). */
export interface ProberHealthForDeps {
  config: VerificationConfig;
  resolver: ReturnType<typeof createNodeDnsClient>;
  clock: Clock;
  logger?: Logger;
  tuning?: HealthTuning;
  /** The egress pool probes use (default: one made from the configuration). */
  pool?: EgressPool;
}

export function createProberHealthFor(deps: ProberHealthForDeps): ProberHealth {
  const { config, resolver, clock, logger, tuning = {} } = deps;
  const pool = deps.pool ?? egressPoolOf({ config, clock, ...(logger ? { logger } : {}) });
  const { connectTimeoutMs = 5_000, bannerTimeoutMs = 10_000, ...timings } = tuning;
  // The check goes out the way a probe to the same host would: same pool, same proxy or source
  // address. An egress whose way out fails is taken out of rotation and the next one tried, so
  // one dead proxy of several does not fail the whole SMTP egress concern.
  const bannerThrough = (egress: SmtpEgress, host: string, address: string) => {
    const { proxy, localAddress } = egress;
    return checkBanner(host, address, {
      port: config.smtpPort,
      connectTimeoutMs,
      timeoutMs: bannerTimeoutMs,
      ...(proxy ? { proxy } : {}),
      ...(localAddress ? { localAddress } : {}),
    });
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

/** What `mailsure doctor` reports: prober health checked once, and each egress on its own when there are several. */
export interface DoctorChecks {
  state: Awaited<ReturnType<ProberHealth['checkNow']>>;
  /** With several egresses: the canaries' banners through each one. */
  eachEgress?: () => Promise<(EgressStatus & { check: ConcernHealth })[]>;
}

/** The doctor's checks: every check runs whatever the depth, so an operator can see what mailbox depth would meet. */
export async function runDoctorChecks({ config, clock }: { config: VerificationConfig; clock: Clock }): Promise<DoctorChecks> {
  const resolver = createNodeDnsClient(config.dnsServers);
  const pool = egressPoolOf({ config, clock });
  const health = createProberHealthFor({ config: { ...config, verifyDepth: 'mailbox' }, resolver, clock, pool });
  const state = await health.checkNow();
  health.stop();
  return { state, ...(pool.egresses.length > 1 ? { eachEgress: () => checkEachEgress({ config, resolver, pool }) } : {}) };
}
