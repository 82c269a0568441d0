// How a mail provider answers RCPT TO, for the mailbox stage. `acceptsAllAtRcpt` providers say
// 250 to every recipient and bounce unknown ones later, so their 250 proves nothing: the verdict
// is 20 (mailbox not checkable), never 50 (decisions §4).
//
// Only Yahoo's platform is marked true: it accepts any recipient at RCPT for its own domains,
// for AOL (moved onto it in 2017-2019) and for partner ISPs whose MX is still at yahoodns.net.
//
// Everything else is false, for one of two reasons:
// - Mailbox providers that reject unknown users at RCPT: Gmail / Google Workspace (550 5.1.1),
//   Outlook.com, iCloud, Proton, Zoho, GMX/WEB.DE, Fastmail, Mail.ru, Yandex, QQ.
//   Microsoft 365 (Exchange Online Protection) rejects with 550 5.4.1 "Recipient address
//   rejected: Access denied" when Directory-Based Edge Blocking is on, which is the default for
//   an Authoritative accepted domain; tenants with Internal Relay domains accept everyone.
// - Security gateways (Proofpoint, Mimecast, Barracuda, Broadcom/Symantec, Cisco, Sophos,
//   Trend Micro, Forcepoint): whether they check recipients depends on each customer's setup
//   (directory sync, LDAP or SMTP call-out). Many accept everyone. We do not guess per provider:
//   the catch-all probe (a random local part in the same session) exposes an accept-all tenant
//   and yields 45, while a gateway that does check recipients still gives proof of 400.
// The profile name is also useful in logs and in the reason of a verdict.

import { parse } from 'tldts';
import { normalizeName, selfOrParentIn } from './domain-name.js';

export interface ProviderProfile {
  name: string;
  acceptsAllAtRcpt: boolean;
}

interface ProviderRule extends ProviderProfile {
  /** Address domains served by the provider (exact names). */
  domains: readonly string[];
  /** MX hosts: each name matches itself and every host under it. */
  mxSuffixes: readonly string[];
}

const RULES: readonly ProviderRule[] = [
  {
    name: 'Yahoo',
    acceptsAllAtRcpt: true,
    // Plus every yahoo.<public suffix>: see profileFor.
    domains: ['ymail.com', 'rocketmail.com', 'aol.com', 'aim.com', 'aol.co.uk', 'aol.fr', 'aol.de'],
    // mta5.am0.yahoodns.net, mx-aol.mail.gm0.yahoodns.net, mx-biz.mail.am0.yahoodns.net; mx.aol.com (legacy AOL)
    mxSuffixes: ['yahoodns.net', 'mx.aol.com'],
  },
  {
    name: 'Google',
    acceptsAllAtRcpt: false,
    domains: ['gmail.com', 'googlemail.com'],
    // gmail-smtp-in.l.google.com, aspmx.l.google.com, alt1.aspmx.l.google.com, smtp.google.com, aspmx2.googlemail.com
    mxSuffixes: ['google.com', 'googlemail.com'],
  },
  {
    name: 'Outlook.com',
    acceptsAllAtRcpt: false,
    domains: ['outlook.com', 'hotmail.com', 'live.com', 'msn.com'],
    mxSuffixes: ['olc.protection.outlook.com'],
  },
  {
    name: 'Microsoft 365',
    acceptsAllAtRcpt: false,
    domains: [],
    // <tenant>.mail.protection.outlook.com; <tenant>.<region>-v1.mx.microsoft (DNSSEC-signed MX)
    mxSuffixes: ['mail.protection.outlook.com', 'mx.microsoft'],
  },
  { name: 'iCloud', acceptsAllAtRcpt: false, domains: ['icloud.com', 'me.com', 'mac.com'], mxSuffixes: ['mail.icloud.com'] },
  {
    name: 'Proton',
    acceptsAllAtRcpt: false,
    domains: ['proton.me', 'protonmail.com', 'protonmail.ch', 'pm.me'],
    mxSuffixes: ['protonmail.ch'],
  },
  {
    name: 'Zoho',
    acceptsAllAtRcpt: false,
    domains: ['zoho.com', 'zohomail.com'],
    mxSuffixes: ['zoho.com', 'zoho.eu', 'zoho.in', 'zoho.com.au'],
  },
  {
    name: 'GMX / WEB.DE / mail.com',
    acceptsAllAtRcpt: false,
    domains: ['gmx.net', 'gmx.de', 'gmx.com', 'web.de', 'mail.com'],
    mxSuffixes: ['gmx.net', 'web.de', 'mail.com'],
  },
  { name: 'Fastmail', acceptsAllAtRcpt: false, domains: ['fastmail.com', 'fastmail.fm'], mxSuffixes: ['messagingengine.com'] },
  { name: 'Mail.ru', acceptsAllAtRcpt: false, domains: ['mail.ru', 'inbox.ru', 'list.ru', 'bk.ru'], mxSuffixes: ['mail.ru'] },
  { name: 'Yandex', acceptsAllAtRcpt: false, domains: ['yandex.ru', 'yandex.com', 'ya.ru'], mxSuffixes: ['yandex.net', 'yandex.ru'] },
  { name: 'Tencent QQ', acceptsAllAtRcpt: false, domains: ['qq.com', 'foxmail.com'], mxSuffixes: ['qq.com'] },
  // Security gateways: recipient checking is per customer (see above).
  { name: 'Proofpoint', acceptsAllAtRcpt: false, domains: [], mxSuffixes: ['pphosted.com', 'ppe-hosted.com'] },
  { name: 'Mimecast', acceptsAllAtRcpt: false, domains: [], mxSuffixes: ['mimecast.com', 'mimecast.co.za'] },
  { name: 'Barracuda', acceptsAllAtRcpt: false, domains: [], mxSuffixes: ['barracudanetworks.com'] },
  { name: 'Broadcom Email Security.cloud', acceptsAllAtRcpt: false, domains: [], mxSuffixes: ['messagelabs.com'] },
  { name: 'Cisco Secure Email', acceptsAllAtRcpt: false, domains: [], mxSuffixes: ['iphmx.com'] },
  { name: 'Sophos Email', acceptsAllAtRcpt: false, domains: [], mxSuffixes: ['hydra.sophos.com'] },
  { name: 'Trend Micro Email Security', acceptsAllAtRcpt: false, domains: [], mxSuffixes: ['tmes.trendmicro.com', 'tmes.trendmicro.eu'] },
  { name: 'Forcepoint Email Security', acceptsAllAtRcpt: false, domains: [], mxSuffixes: ['mailcontrol.com'] },
];

const PROFILES = new Map<ProviderRule, ProviderProfile>(
  RULES.map((rule) => [rule, Object.freeze({ name: rule.name, acceptsAllAtRcpt: rule.acceptsAllAtRcpt })]),
);
const BY_DOMAIN = new Map<string, ProviderProfile>();
const BY_MX_SUFFIX = new Map<string, ProviderProfile>();
for (const rule of RULES) {
  for (const domain of rule.domains) BY_DOMAIN.set(domain, PROFILES.get(rule)!);
  for (const suffix of rule.mxSuffixes) BY_MX_SUFFIX.set(suffix, PROFILES.get(rule)!);
}
const MX_SUFFIXES: ReadonlySet<string> = new Set(BY_MX_SUFFIX.keys());
const YAHOO = PROFILES.get(RULES[0]!)!;

/**
 * The provider that receives mail for `domain`: by the address domain first, else by the first
 * MX host (in preference order) that belongs to a known provider. Undefined when unknown.
 */
export function profileFor(domain: string, mxHosts: readonly string[]): ProviderProfile | undefined {
  const name = normalizeName(domain);
  const byDomain = BY_DOMAIN.get(name);
  if (byDomain !== undefined) return byDomain;
  if (name.startsWith('yahoo.')) {
    // yahoo.co.uk, yahoo.com.br, …: Yahoo holds its name under the public suffixes it serves.
    const parsed = parse(name, { extractHostname: false });
    if (parsed.isIcann === true && parsed.domain === name && parsed.domainWithoutSuffix === 'yahoo') return YAHOO;
  }
  for (const host of mxHosts) {
    const suffix = selfOrParentIn(normalizeName(host), MX_SUFFIXES);
    if (suffix !== undefined) return BY_MX_SUFFIX.get(suffix);
  }
  return undefined;
}
