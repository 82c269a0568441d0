/**
 * The domain stage's decision, pure: what a DNS answer proves (decisions §4). Only a definite
 * answer condemns a domain; no answer (SERVFAIL, timeout) ends the verdict as unknown.
 */
import type { MailRoute, MxHost } from './dns/mail-route.js';

export const CODE = {
  timeout: 5,
  syntaxOk: 10,
  domainOk: 20,
  catchAll: 45,
  deliverable: 50,
  exception: 55,
  suppressed: 255,
  domainMissing: 310,
  noMail: 325,
  noMailbox: 400,
  mailboxFull: 410,
  refusesMail: 420,
  dangerousMailbox: 500,
  /** Domain not accepted: a large provider's domain misspelt (with corrections), or disposable (legacy). */
  domainRejected: 505,
  addressRefused: 510,
  bouncer: 520,
  trap: 525,
  optedOut: 530,
  doNotEmail: 535,
  systemError: 999,
} as const;

export type DomainDecision = { code: number } | { hosts: MxHost[] };

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
export function decideHostAddresses(summary: HostAddressSummary): { code: number } | undefined {
  if (summary.reachable.length > 0) return undefined;
  return { code: summary.unanswered ? CODE.timeout : CODE.noMail };
}
