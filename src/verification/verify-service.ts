/**
 * The verification pipeline for one address (DESIGN "Verification"): syntax → client lists →
 * policy lists → domain facts → DNS → mailbox → catch-all, stopping at the first stage that
 * decides and at the operator's depth. Every stage's decision is a pure function elsewhere; this
 * file gathers facts and keeps the whole verdict inside the caller's time budget.
 */
import type { Clock } from '../core/clock.js';
import type { VerifyDepth } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { maskAddress } from '../core/logger.js';
import type { ClientListStore, PolicyStore } from '../storage/interfaces.js';
import { CODE, decideHostAddresses, decideMailRoute } from './decide-domain.js';
import { decideClientLists, decidePolicy } from './decide-lists.js';
import type { CatchAllFact } from './decide-mailbox.js';
import type { DnsClient } from './dns/mail-route.js';
import { classifyDomain, isDangerousMailbox, profileFor } from './domain-facts/index.js';
import type { FactCache } from './fact-cache.js';
import { resolveHosts } from './host-addresses.js';
import { runMailboxStage } from './mailbox-stage.js';
import { statusesFor } from './render.js';
import type { SmtpProber } from './smtp/prober.js';
import { classifySyntax } from './syntax.js';
import type { DomainType, Verdict } from './verdict.js';

export interface VerifyDeps {
  depth: VerifyDepth;
  dns: DnsClient;
  prober: SmtpProber;
  catchAll: FactCache<CatchAllFact>;
  policy: PolicyStore;
  clientLists: ClientListStore;
  allowPrivateTargets: boolean;
  clock: Clock;
  logger?: Logger;
  greylistRetryMs?: number;
  /** Candidate fixes for an invalid input, best first (corrections module). */
  suggestCorrections?: (input: string) => string[];
  randomLocalPart?: () => string;
}

export interface VerifyOptions {
  /** Upper bound for the whole verdict; past it the answer is code 5. */
  timeoutMs: number;
  /** The caller's key: its client lists, its bouncer feature, its corrections service. */
  key?: { id: number; bouncers: boolean; corrections: boolean };
}

export interface VerifyService {
  verify(input: string, options: VerifyOptions): Promise<Verdict>;
}

type Partial = Omit<Verdict, 'address' | 'roleAccount'>;
type Learned = { domainType?: DomainType | undefined };

export function createVerifyService(deps: VerifyDeps): VerifyService {
  const service: VerifyService = {
    async verify(input, options) {
      const deadline = deps.clock.now() + options.timeoutMs;
      const syntax = classifySyntax(input);
      if (!syntax.ok) {
        const verdict: Verdict = { address: input, code: syntax.code, roleAccount: syntax.roleAccount };
        return withCorrections(verdict, input, options, deadline);
      }
      const base = { address: syntax.address, roleAccount: syntax.roleAccount };
      const local = syntax.address.slice(0, syntax.address.lastIndexOf('@'));
      // What the stages learned so far, so a verdict cut short by the deadline still carries it.
      const learned: Learned = {};
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<Partial>((resolve) => {
        timer = setTimeout(() => resolve({ code: CODE.timeout, ...learned }), Math.max(0, deadline - deps.clock.now()));
      });
      try {
        const decided = await Promise.race([decide(local, syntax.asciiDomain, options, deadline, learned), expired]);
        const verdict: Verdict = { ...base, ...decided };
        return withCorrections(verdict, input, options, deadline);
      } catch (error) {
        deps.logger?.error({ err: error, address: maskAddress(syntax.address) }, 'verification failed');
        return { ...base, code: CODE.systemError };
      } finally {
        clearTimeout(timer);
      }
    },
  };
  return service;

  async function decide(local: string, domain: string, options: VerifyOptions, deadline: number, learned: Learned): Promise<Partial> {
    const address = `${local}@${domain}`;
    if (options.key) {
      const client = decideClientLists(await deps.clientLists.match(options.key.id, address, domain));
      if (client) return { ...client, ...nameType(domain) };
    }
    const policy = decidePolicy(await deps.policy.match(address, domain), options.key?.bouncers ?? false);
    if (policy) return { ...policy, ...nameType(domain) };

    const byName = nameType(domain);
    Object.assign(learned, byName);
    if (byName.domainType === 'disposable') return { code: CODE.trap, domainType: 'disposable' };
    if (isDangerousMailbox(local)) return { code: CODE.dangerousMailbox, ...byName };
    if (deps.depth === 'syntax') return { code: CODE.syntaxOk, ...byName };

    const [route, nsHosts] = await Promise.all([deps.dns.mailRoute(domain, deadline), deps.dns.nameServers(domain, deadline)]);
    const routed = decideMailRoute(route);
    const mxHosts = 'hosts' in routed ? routed.hosts.map((h) => h.name) : [];
    const domainType = classifyDomain({ domain, mxHosts, nsHosts, working: 'hosts' in routed });
    const typed = domainType ? { domainType } : {};
    learned.domainType = domainType;
    if ('code' in routed) return { code: routed.code, ...typed };
    if (domainType === 'disposable') return { code: CODE.trap, ...typed };

    const summary = await resolveHosts(deps.dns, routed.hosts, deps.allowPrivateTargets, deadline);
    const unreachable = decideHostAddresses(summary);
    if (unreachable) return { ...unreachable, ...typed };
    if (deps.depth === 'domain') return { code: CODE.domainOk, ...typed };
    // Providers that accept every recipient at RCPT time can only ever say "maybe": 20, never 50.
    if (profileFor(domain, mxHosts)?.acceptsAllAtRcpt) return { code: CODE.domainOk, ...typed };

    const code = await runMailboxStage(
      { prober: deps.prober, catchAll: deps.catchAll, greylistRetryMs: deps.greylistRetryMs ?? 3_000, ...(deps.randomLocalPart ? { randomLocalPart: deps.randomLocalPart } : {}) },
      { recipient: address, asciiDomain: domain, hosts: summary.reachable },
      deadline,
    );
    return { code, ...typed };
  }

  function nameType(domain: string): { domainType?: DomainType } {
    const type = classifyDomain({ domain, mxHosts: [], nsHosts: [], working: false });
    return type ? { domainType: type } : {};
  }

  /** Suggestions are verified in turn; only the deliverable ones are offered, on invalid verdicts only. */
  async function withCorrections(verdict: Verdict, input: string, options: VerifyOptions, deadline: number): Promise<Verdict> {
    if (!options.key?.corrections || !deps.suggestCorrections || statusesFor(verdict.code)[0] !== 'invalid') return verdict;
    const offered: string[] = [];
    for (const candidate of deps.suggestCorrections(input)) {
      const remaining = deadline - deps.clock.now();
      if (remaining <= 0) break;
      const checked = await service.verify(candidate, { timeoutMs: remaining, key: { ...options.key, corrections: false } });
      if (DELIVERABLE.has(statusesFor(checked.code)[0])) offered.push(checked.address);
    }
    return offered.length > 0 ? { ...verdict, corrections: offered } : verdict;
  }
}

const DELIVERABLE = new Set(['safetosend', 'valid', 'catchall']);
