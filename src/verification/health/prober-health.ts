/**
 * Prober health, measured continuously: whether this process can trust its resolver, reach
 * port 25 of other people's MX hosts, and present an identity providers accept. Checked at
 * start, then every few minutes (every minute while something is wrong), at once when real
 * traffic suggests the resolver started lying (nxdomain-watch.ts) or the egress closed
 * (probe-evidence.ts). Verification asks it before giving a verdict that a fault of ours could
 * fake: a negative DNS answer (310, 325) or every MX refusing us (420).
 */
import { getDomain } from 'tldts';
import type { Clock } from '../../core/clock.js';
import type { VerifyDepth } from '../../core/config.js';
import type { Logger } from '../../core/logger.js';
import type { MailRoute } from '../dns/mail-route.js';
import type { EgressStatus } from '../smtp/egress-pool.js';
import type { ProbeObserver } from '../smtp/prober.js';
import type { IdentityEvidence } from './decide-identity.js';
import { decideIdentity, decideRefusals } from './decide-identity.js';
import { egressHint, proxyHint } from './decide-egress.js';
import {
  CONCERNS,
  mailboxVerificationAvailable,
  unknownConcern,
  type Concern,
  type ConcernHealth,
  type ProberHealthState,
} from './health-state.js';
import { NxdomainWatch, type NxdomainWatchOptions } from './nxdomain-watch.js';
import { ProbeEvidence, refusalIsAboutUs, type ProbeEvidenceOptions } from './probe-evidence.js';
import { providerBlocksUs } from '../providers/provider-refusal.js';
import { checkEgress, checkResolver, gatherIdentity, type HealthCheckDeps } from './run-checks.js';

export interface ProberHealthDeps {
  checks: HealthCheckDeps;
  depth: VerifyDepth;
  clock: Clock;
  logger?: Logger;
  /** Between checks while everything is ok (default 5 minutes). */
  intervalMs?: number;
  /** Between checks while something is degraded or failed (default 1 minute). */
  troubledIntervalMs?: number;
  /** Least time between two checks that traffic asks for (default 30 s). */
  recheckMinMs?: number;
  /** How recent a successful connection must be for a refusal to count as the domain's (default 60 s). */
  egressConfirmMs?: number;
  /** How recent the resolver check must be for a negative answer to condemn a domain (default 5 s). */
  resolverConfirmMs?: number;
  evidence?: ProbeEvidenceOptions;
  nxdomain?: NxdomainWatchOptions;
  /** The egress pool's state (egress-pool.ts): each egress by label, healthy or out of rotation. */
  egresses?: () => EgressStatus[];
}

export interface ProberHealth extends ProbeObserver {
  /** The current state of every concern. */
  state(): ProberHealthState;
  /** Whether mailbox verdicts can be given (depth mailbox, resolver and egress not failed). */
  mailboxAvailable(): boolean;
  /** Runs the first check and schedules the next ones; resolves when the first is done. */
  start(): Promise<void>;
  stop(): void;
  /** Runs every check now (or joins the one running) and answers the state after it. */
  checkNow(): Promise<ProberHealthState>;
  /** The resolver is known broken: DNS answers prove nothing, in either direction. */
  resolverFailed(): boolean;
  /** The SMTP egress is known blocked: probes would only wait out time-outs. */
  egressBlocked(): boolean;
  /** Whether a negative DNS answer may condemn a domain; waits for a running check, up to `deadline`. */
  trustNegativeDns(deadline: number): Promise<boolean>;
  /** Whether MX hosts refusing our connections is the domain's doing; may check, up to `deadline`. */
  trustConnectionRefusal(deadline: number): Promise<boolean>;
  /** Feeds the NXDOMAIN watch with a real lookup's answer. */
  observeRoute(route: MailRoute): void;
  /** Each egress of the pool by its label (one, `egress-1`, when no pool was given). */
  egresses(): EgressStatus[];
}

export function createProberHealth(deps: ProberHealthDeps): ProberHealth {
  const now = () => deps.clock.now();
  const intervalMs = deps.intervalMs ?? 300_000;
  const troubledIntervalMs = deps.troubledIntervalMs ?? 60_000;
  const recheckMinMs = deps.recheckMinMs ?? 30_000;
  const egressConfirmMs = deps.egressConfirmMs ?? 60_000;
  const resolverConfirmMs = deps.resolverConfirmMs ?? 5_000;
  const evidence = new ProbeEvidence(deps.evidence);
  const nxdomain = new NxdomainWatch(deps.nxdomain);
  const checksSmtp = deps.depth === 'mailbox';

  let canaryEgress: ConcernHealth = checksSmtp ? unknownConcern('not checked yet') : unknownConcern(`not used at depth ${deps.depth}`);
  let identityDns: Omit<IdentityEvidence, 'refusals'> | undefined;
  const current: ProberHealthState = {
    resolver: deps.depth === 'syntax' ? unknownConcern('not used at depth syntax') : unknownConcern('not checked yet'),
    smtp_egress: canaryEgress,
    identity: checksSmtp ? unknownConcern('not checked yet') : unknownConcern(`not used at depth ${deps.depth}`),
  };
  /** The last time real probes found the SOCKS proxy failing, until a connection goes through again. */
  let proxyFailure: { at: number; detail: string } | undefined;
  let running: Promise<void> | undefined;
  let lastCheck = -Infinity;
  /** The resolver alone, asked again before a negative answer is believed. */
  let confirming: Promise<void> | undefined;
  let resolverCheckedAt = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;

  function publish(concern: Concern, next: ConcernHealth): void {
    const previous = current[concern];
    current[concern] = next;
    if (previous.state === next.state) return;
    const fields = {
      concern,
      state: next.state,
      previous: previous.state,
      evidence: next.evidence,
      ...(next.hint ? { hint: next.hint } : {}),
    };
    if (next.state === 'ok') deps.logger?.info(fields, `prober health: ${concern} is ok`);
    else deps.logger?.warn(fields, `prober health: ${concern} is ${next.state}${next.hint ? `: ${next.hint}` : ''}`);
  }

  /** The egress as the canaries and real probes together say it is. */
  function egressState(): ConcernHealth {
    if (!checksSmtp) return canaryEgress;
    if (proxyFailure)
      return {
        state: 'failed',
        evidence: [`real probes: ${proxyFailure.detail}`],
        hint: proxyHint(deps.checks.smtpPort),
        checkedAt: proxyFailure.at,
      };
    const runtime = evidence.egress(now());
    if (!runtime.blocked) {
      // No canary answer to go by (no canary resolved): connections real probes made are proof enough.
      if (canaryEgress.state === 'unknown' && now() - evidence.lastSuccessAt() <= egressConfirmMs) {
        return { state: 'ok', evidence: ['real probes connect to MX hosts'], checkedAt: now() };
      }
      return canaryEgress;
    }
    return {
      state: 'failed',
      evidence: runtime.failures.map((f) => `real probes: ${f.operator}: ${f.detail}`),
      hint: egressHint(deps.checks.smtpPort, deps.checks.via),
      checkedAt: now(),
    };
  }

  function identityState(): ConcernHealth {
    if (!checksSmtp) return current.identity;
    const refusals = evidence.reputation(now());
    if (identityDns) return decideIdentity({ ...identityDns, refusals }, now());
    // Before the first check only what real probes said is known.
    return refusals.length === 0 ? current.identity : decideRefusals(refusals, now());
  }

  async function runChecks(): Promise<void> {
    if (deps.depth === 'syntax') return;
    const routes = await resolverCheck();
    if (!checksSmtp) return;
    const [egress, identity] = await Promise.all([checkEgress(deps.checks, routes, now), gatherIdentity(deps.checks, now)]);
    canaryEgress = egress;
    if (egress.state === 'ok') {
      evidence.recordSuccess(now());
      proxyFailure = undefined;
    }
    identityDns = identity;
    publish('smtp_egress', egressState());
    publish('identity', identityState());
  }

  async function resolverCheck(): Promise<Map<string, MailRoute>> {
    const { health: resolver, routes } = await checkResolver(deps.checks, now);
    resolverCheckedAt = now();
    publish('resolver', resolver);
    if (resolver.state === 'ok') nxdomain.clear();
    return routes;
  }

  /** The resolver check alone, shared by every verdict waiting on it. */
  function confirmResolver(): Promise<void> {
    confirming ??= resolverCheck()
      .then(() => undefined)
      .catch((error: unknown) => deps.logger?.error({ err: error }, 'prober health: resolver check failed'))
      .finally(() => {
        confirming = undefined;
      });
    return confirming;
  }

  function checkNow(): Promise<ProberHealthState> {
    running ??= runChecks()
      .catch((error: unknown) => deps.logger?.error({ err: error }, 'prober health check failed'))
      .finally(() => {
        lastCheck = now();
        running = undefined;
        schedule();
      });
    return running.then(() => health.state());
  }

  function schedule(): void {
    if (stopped || deps.depth === 'syntax') return;
    clearTimeout(timer);
    const troubled = CONCERNS.some((c) => current[c].state === 'failed' || current[c].state === 'degraded');
    timer = setTimeout(() => void checkNow(), troubled ? troubledIntervalMs : intervalMs);
    timer.unref();
  }

  /**
   * A check asked for by traffic: now, or as soon as `recheckMinMs` since the last one allows
   * (never dropped: a breaker tripped just after a check must not wait for the regular interval).
   */
  function recheckSoon(): void {
    if (running || stopped) return;
    const wait = lastCheck + recheckMinMs - now();
    if (wait <= 0) {
      void checkNow();
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(() => void checkNow(), wait);
    timer.unref();
  }

  async function within<T>(promise: Promise<T>, deadline: number): Promise<T | undefined> {
    const remaining = deadline - now();
    if (remaining <= 0) return undefined;
    let t: NodeJS.Timeout | undefined;
    const expired = new Promise<undefined>((resolve) => {
      t = setTimeout(() => resolve(undefined), remaining);
    });
    try {
      return await Promise.race([promise, expired]);
    } finally {
      clearTimeout(t);
    }
  }

  const operatorOf = (host: string): string => getDomain(host, { allowPrivateDomains: false }) ?? host;

  const health: ProberHealth = {
    state: () => ({ resolver: current.resolver, smtp_egress: current.smtp_egress, identity: current.identity }),
    egresses: () =>
      deps.egresses?.() ?? [
        { label: 'egress-1', way: deps.checks.via ? 'socks5' : 'direct', healthy: current.smtp_egress.state !== 'failed' },
      ],
    mailboxAvailable: () => checksSmtp && mailboxVerificationAvailable(current),
    async start() {
      stopped = false;
      await checkNow();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    checkNow,
    resolverFailed: () => current.resolver.state === 'failed',
    egressBlocked: () => current.smtp_egress.state === 'failed',
    async trustNegativeDns(deadline) {
      if (deps.depth === 'syntax') return true;
      if (current.resolver.state === 'unknown' && !running) void checkNow();
      if (running) await within(running, deadline);
      if (running || current.resolver.state !== 'ok') return false;
      // A resolver that began lying since the last check would fake exactly this answer: the
      // canaries are asked again first (one shared check every few seconds at most).
      if (now() - resolverCheckedAt > resolverConfirmMs) await within(confirmResolver(), deadline);
      return current.resolver.state === 'ok' && now() - resolverCheckedAt <= resolverConfirmMs + 1_000;
    },
    async trustConnectionRefusal(deadline) {
      if (current.smtp_egress.state === 'failed') return false;
      const recent = () => now() - evidence.lastSuccessAt() <= egressConfirmMs;
      if (current.smtp_egress.state === 'ok' && recent()) return true;
      // No recent proof that connections go out: ask the canaries before blaming the domain.
      await within<unknown>(running ?? checkNow(), deadline);
      return current.smtp_egress.state === 'ok' && recent();
    },
    observeRoute(route) {
      if (deps.depth === 'syntax' || route.kind === 'unavailable') return;
      if (nxdomain.record(route.kind === 'nxdomain', now())) recheckSoon();
    },
    connection(host, _address, connected, detail) {
      if (!checksSmtp) return;
      const wasBlocked = current.smtp_egress.state === 'failed';
      if (connected) proxyFailure = undefined;
      evidence.recordConnection({ operator: operatorOf(host), connected, detail }, now());
      const next = egressState();
      if (next.state !== current.smtp_egress.state) publish('smtp_egress', next);
      // Tripped by real traffic: let the canaries confirm or clear it at once.
      if (!wasBlocked && next.state === 'failed') recheckSoon();
    },
    egressFailed(_host, detail) {
      if (!checksSmtp) return;
      // Proof enough that the way out is closed now; the canaries (through the same proxy) confirm or clear it.
      const wasBlocked = current.smtp_egress.state === 'failed';
      proxyFailure = { at: now(), detail: detail.slice(0, 200) };
      publish('smtp_egress', egressState());
      if (!wasBlocked) recheckSoon();
    },
    refusal(host, text) {
      // About us by its words, or by the provider's own table of the replies it blocks us with.
      if (!checksSmtp || !(refusalIsAboutUs(text) || providerBlocksUs(host, text))) return;
      evidence.recordRefusalAboutUs(operatorOf(host), text, now());
      publish('identity', identityState());
    },
  };
  return health;
}
