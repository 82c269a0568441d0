/**
 * The domain stage: MX (or implicit MX), name servers, domain type, and the MX hosts we may
 * probe. Its result is remembered per domain for a short while on top of the DNS caches, so a
 * burst of addresses at one domain costs one map lookup each instead of a chain of cache reads.
 * A result that rests on a missing DNS answer (code 5) is never remembered.
 */
import type { Clock } from '../core/clock.js';
import { CODE } from './codes.js';
import { decideDomainType, decideHostAddresses, decideMailRoute } from './decide-domain.js';
import type { DnsClient } from './dns/mail-route.js';
import { classifyDomain } from './domain-facts/index.js';
import { resolveHosts } from './host-addresses.js';
import type { Decision } from './rules.js';
import type { DomainType } from './verdict.js';

export interface DomainStageResult {
  /** Set when the domain alone decides the verdict (310, 325, 525, 5): decide-domain.ts's rule and code. */
  decision?: Decision;
  domainType?: DomainType;
  mxHosts: string[];
  /** MX hosts with addresses we may connect to, in preference order. */
  reachable: { host: string; addresses: string[] }[];
}

/** Not longer than the shortest TTL the DNS caches keep a positive answer (30 s). */
const REMEMBER_MS = 30_000;
const MAX_REMEMBERED = 50_000;

export function createDomainStage(deps: { dns: DnsClient; allowPrivateTargets: boolean; clock: Clock }) {
  const remembered = new Map<string, { result: DomainStageResult; expires: number }>();

  async function look(domain: string, deadline: number, dns: DnsClient = deps.dns): Promise<DomainStageResult> {
    const [route, nsHosts] = await Promise.all([dns.mailRoute(domain, deadline), dns.nameServers(domain, deadline)]);
    const routed = decideMailRoute(route);
    const mxHosts = 'hosts' in routed ? routed.hosts.map((h) => h.name) : [];
    const domainType = classifyDomain({ domain, mxHosts, nsHosts: nsHosts ?? [], working: 'hosts' in routed });
    const typed = domainType ? { domainType } : {};
    if ('code' in routed) return { decision: routed, ...typed, mxHosts, reachable: [] };
    const disposable = decideDomainType(domainType);
    if (disposable) return { decision: disposable, ...typed, mxHosts, reachable: [] };
    const summary = await resolveHosts(dns, routed.hosts, deps.allowPrivateTargets, deadline);
    const unreachable = decideHostAddresses(summary);
    return { ...(unreachable ? { decision: unreachable } : {}), ...typed, mxHosts, reachable: summary.reachable };
  }

  const peek = (domain: string): DomainStageResult | undefined => {
    const hit = remembered.get(domain);
    return hit && hit.expires > deps.clock.now() ? hit.result : undefined;
  };

  const domainStage = async (domain: string, deadline: number): Promise<DomainStageResult> => {
    const hit = peek(domain);
    if (hit) return hit;
    const now = deps.clock.now();
    const result = await look(domain, deadline);
    if (result.decision?.code !== CODE.timeout) {
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      remembered.set(domain, { result, expires: now + REMEMBER_MS });
    }
    return result;
  };
  /**
   * Asked afresh through `dns` (a recording client, for a verdict's evidence), past what is
   * remembered here; the DNS caches under it still answer, so it costs no extra lookup.
   */
  const fresh = (domain: string, deadline: number, dns: DnsClient): Promise<DomainStageResult> => look(domain, deadline, dns);
  /** The remembered result without waiting: undefined when none is fresh. */
  return Object.assign(domainStage, { peek, fresh });
}
