/**
 * The domain stage's decision, pure: what a DNS answer proves (decisions §4). Only a definite
 * answer condemns a domain; no answer (SERVFAIL, timeout) ends the verdict as unknown.
 */
import { CODE, type StatusCode } from './codes.js';
import type { MailRoute, MxHost } from './dns/mail-route.js';

// Importers of `CODE` from here predate the catalogue; new code imports it from `codes.js`.
export { CODE } from './codes.js';

export type DomainDecision = { code: StatusCode } | { hosts: MxHost[] };

export function decideMailRoute(route: MailRoute): DomainDecision {
  switch (route.kind) {
    case 'mx':
    case 'implicit':
      return { hosts: route.hosts };
    case 'nxdomain':
      return { code: CODE.domainMissing };
    case 'null-mx':
    case 'no-mail':
      return { code: CODE.noMail };
    case 'unavailable':
      return { code: CODE.timeout };
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
export function decideHostAddresses(summary: HostAddressSummary): { code: StatusCode } | undefined {
  if (summary.reachable.length > 0) return undefined;
  return { code: summary.unanswered ? CODE.timeout : CODE.noMail };
}
