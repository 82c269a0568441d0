/**
 * The domain stage's decisions, pure: what the domain's name, its name servers and its DNS answer
 * prove (decisions §4), whether our resolver may be believed, and where the pipeline stops before
 * the mailbox. Only a definite answer condemns a domain; no answer (SERVFAIL, timeout) ends the
 * verdict as unknown, and a negative answer (310, 325) counts only while our resolver is trusted
 * (prober health): both decided here, the second by `decideTrusted` once the pipeline has asked.
 */
import type { VerifyDepth } from '../core/config.js';
import { CODE, type StatusCode } from './codes.js';
import type { MailRoute, MxHost } from './dns/mail-route.js';
import type { RcptEvidence } from './providers/profile.js';
import { decided, type Decision } from './rules.js';
import type { DomainType } from './verdict.js';

export type DomainDecision = Decision | { hosts: MxHost[] };

export function decideMailRoute(route: MailRoute): DomainDecision {
  switch (route.kind) {
    case 'mx':
    case 'implicit':
      return { hosts: route.hosts };
    case 'nxdomain':
      return NXDOMAIN;
    case 'null-mx':
      return NULL_MX;
    case 'no-mail':
      return NO_MAIL_ROUTE;
    case 'unavailable':
      return UNANSWERED;
  }
}

/** The outcome of resolving every MX host to addresses we may connect to. */
export interface HostAddressSummary {
  /** Hosts with at least one permitted address, in preference order. */
  reachable: { host: string; addresses: string[] }[];
  /** Some host resolved only to loopback/private/reserved addresses. */
  onlyPrivate: boolean;
  /** Some host's lookup got no answer at all. */
  unanswered: boolean;
}

/**
 * No reachable host: when every host is proven absent or private the domain cannot receive mail
 * from the internet (325); when some lookup went unanswered we cannot tell (5).
 */
export function decideHostAddresses(summary: HostAddressSummary): Decision | undefined {
  if (summary.reachable.length > 0) return undefined;
  return summary.unanswered ? UNANSWERED : NO_PUBLIC_MX_ADDRESS;
}

/** A disposable-address domain, known by its name alone or by its name servers (domain-facts/). */
export function decideDomainType(domainType: DomainType | undefined): Decision | undefined {
  return domainType === 'disposable' ? DISPOSABLE : undefined;
}

/** A resolver that lies or does not answer proves nothing either way: no lookups, no waiting. */
export function decideResolver(resolverFailed: boolean): Decision | undefined {
  return resolverFailed ? RESOLVER_NOT_TRUSTED : undefined;
}

/** Whether a decision rests on a negative DNS answer: a lying resolver fakes exactly these. */
export function restsOnNegativeDns(decision: Decision): boolean {
  return NEGATIVE_DNS.has(decision.code);
}

/** A decision resting on a negative DNS answer, once the pipeline has asked whether our resolver is trusted. */
export function decideTrusted(decision: Decision, resolverTrusted: boolean): Decision {
  return restsOnNegativeDns(decision) && !resolverTrusted ? RESOLVER_NOT_TRUSTED : decision;
}

/** Depth `domain` stops once the domain is known to take mail. */
export function decideDomainDepth(depth: VerifyDepth): Decision | undefined {
  return depth === 'domain' ? DOMAIN_OK : undefined;
}

/** Providers that accept every recipient at RCPT time can only ever say "maybe": 20, never 50. */
export function decideProvider(rcpt: RcptEvidence): Decision | undefined {
  return rcpt === 'none' ? ACCEPTS_ALL : undefined;
}

const NXDOMAIN = decided('dns.nxdomain');
const NULL_MX = decided('dns.null-mx');
const NO_MAIL_ROUTE = decided('dns.no-mail-route');
const NO_PUBLIC_MX_ADDRESS = decided('dns.no-public-mx-address');
const UNANSWERED = decided('dns.unanswered');
const DISPOSABLE = decided('domain.disposable');
const RESOLVER_NOT_TRUSTED = decided('dns.resolver-not-trusted', CODE.timeout, 'resolver');
const DOMAIN_OK = decided('depth.domain');
const ACCEPTS_ALL = decided('provider.accepts-all');
const NEGATIVE_DNS: ReadonlySet<StatusCode> = new Set([CODE.domainMissing, CODE.noMail]);
