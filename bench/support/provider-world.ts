/**
 * The provider-list bench's world and list: 25 business domains at each simulated provider
 * (test/helpers/world/provider-sims.ts) and 50 on two plain hosts, every domain with its own known
 * mailboxes, and a list interleaved over all of them. MX host names are shaped like each
 * provider's own, shared where the provider shares them (aspmx.l.google.com) and per customer
 * where it does not (`<tenant>.mail.protection.outlook.com`, `mx0a-<id>.pphosted.com`), so the
 * server picks each profile exactly as it would outside. Each gateway fronts tenants with
 * recipient validation and tenants that accept everyone, as provider-scenario.ts does.
 *
 * `plain` gives the same domains, mailboxes and host sharing with every server a plain
 * `mailboxes` one behind neutral MX names: the default profile everywhere (the bench's baseline).
 */
import type { Zone } from '../../test/helpers/world/dns-zone.js';
import type { ProviderSimName } from '../../test/helpers/world/provider-sims.js';
import type { WorldSpec } from '../../test/helpers/world/scenario.js';
import type { SmtpServerSpec } from '../../test/helpers/world/smtp-behaviour.js';

export type GroupName = ProviderSimName | 'plain';

export const PER_PROVIDER = 25;
export const PLAIN_DOMAINS = 50;
/** Of every five addresses at a domain, three have a mailbox. */
const EXISTING_OF_FIVE = 3;

interface Group {
  name: GroupName;
  /** In its domains' names: neutral letters, so no domain looks like a misspelt provider to the corrections. */
  slug: string;
  /** Loopback address of its server (list-batch uses .60–.69 and .90; provider-scenario .30–.39). */
  address: string;
  /** MX host names of the group's `i`-th domain, in preference order. */
  mx: (i: number, domain: string) => string[];
  /** Domains (by index in the group) that accept every recipient: a gateway tenant without recipient validation. */
  acceptsAll?: (i: number) => boolean;
  /** The profile id the server must pick for the group's domains. */
  profile: string;
}

const ip = (last: number) => `127.0.0.${last}`;
const shared =
  (...hosts: string[]) =>
  () =>
    hosts;
const code = (i: number) => String(1_000_000 + i * 7_919).slice(1);
const tenant = (domain: string) => domain.replace(/\./g, '-');
// A gateway's first 13 tenants validate recipients; the other 12 accept everyone.
const openTenant = (i: number) => i >= 13;

const GROUPS: Group[] = [
  { name: 'google', slug: 'gw', address: ip(100), mx: shared('aspmx.l.google.com', 'alt1.aspmx.l.google.com'), profile: 'google' },
  {
    name: 'microsoft-365',
    slug: 'ms',
    address: ip(101),
    mx: (_, domain) => [`${tenant(domain)}.mail.protection.outlook.com`],
    profile: 'microsoft-365',
  },
  {
    name: 'outlook-com',
    slug: 'ol',
    address: ip(102),
    mx: (_, domain) => [`${tenant(domain)}.olc.protection.outlook.com`],
    profile: 'outlook-com',
  },
  { name: 'yahoo', slug: 'yh', address: ip(103), mx: shared('mx-biz.mail.am0.yahoodns.net'), profile: 'yahoo' },
  { name: 'icloud', slug: 'ic', address: ip(104), mx: shared('mx01.mail.icloud.com', 'mx02.mail.icloud.com'), profile: 'icloud' },
  {
    name: 'mimecast',
    slug: 'mc',
    address: ip(105),
    mx: shared('eu-smtp-inbound-1.mimecast.com', 'eu-smtp-inbound-2.mimecast.com'),
    acceptsAll: openTenant,
    profile: 'mimecast',
  },
  {
    name: 'proofpoint',
    slug: 'pp',
    address: ip(106),
    mx: (i) => [`mx0a-${code(i)}.pphosted.com`, `mx0b-${code(i)}.pphosted.com`],
    acceptsAll: openTenant,
    profile: 'proofpoint',
  },
  {
    name: 'barracuda',
    slug: 'bc',
    address: ip(107),
    mx: (i) => [`d${code(i)}a.ess.barracudanetworks.com`, `d${code(i)}b.ess.barracudanetworks.com`],
    acceptsAll: openTenant,
    profile: 'barracuda',
  },
  {
    name: 'plain',
    slug: 'plain',
    address: ip(108),
    mx: (i) => [`mx.provbench-hosting-${i % 2 === 0 ? 'a' : 'b'}.net`],
    profile: 'default',
  },
];
const CANARY = { domain: 'provbench-canary.com', address: ip(110) };

export interface BenchDomain {
  domain: string;
  group: GroupName;
  mx: string[];
  acceptsAll: boolean;
  /** The profile id the server must pick. */
  profile: string;
}

export interface ProviderWorld {
  spec: WorldSpec;
  domains: BenchDomain[];
  /** The list, in file order. */
  addresses: string[];
  /** Whether the world's server answers 250 to RCPT TO for this address (its mailbox exists, or the tenant accepts all). */
  accepts(address: string): boolean;
  /** The domain an address of the list is at. */
  domainOf(address: string): BenchDomain;
  /** The world's SMTP server name for each group. */
  serverOf: Record<GroupName, string>;
}

const FIRST = [
  'ana',
  'ben',
  'carla',
  'dev',
  'elena',
  'farid',
  'grace',
  'hugo',
  'ines',
  'jonas',
  'kira',
  'luis',
  'mara',
  'nils',
  'olga',
  'pedro',
  'quinn',
  'rosa',
  'sami',
  'tara',
];
const LAST = [
  'abbott',
  'baker',
  'chen',
  'diaz',
  'evans',
  'fischer',
  'garcia',
  'haas',
  'ito',
  'jensen',
  'khan',
  'lopez',
  'moreau',
  'novak',
  'ortiz',
  'patel',
  'quint',
  'rossi',
  'silva',
  'tanaka',
];

/** The k-th person at a domain: first.last, with a number once the 400 pairs are used up. */
function localPart(k: number): string {
  const pair = k % (FIRST.length * LAST.length);
  const round = Math.floor(k / (FIRST.length * LAST.length));
  return `${FIRST[pair % FIRST.length]}.${LAST[Math.floor(pair / FIRST.length)]}${round === 0 ? '' : round}`;
}

/** Every domain of the world; `plain`: behind neutral MX names (the same sharing), the default profile, no tenant accepting all. */
function allDomains(plain: boolean): BenchDomain[] {
  const domains: BenchDomain[] = [];
  for (const group of GROUPS) {
    const count = group.name === 'plain' ? PLAIN_DOMAINS : PER_PROVIDER;
    for (let i = 0; i < count; i++) {
      const domain = `provbench-${group.slug}-${i}.com`;
      const mx = group.mx(i, domain);
      domains.push(
        plain
          ? {
              domain,
              group: group.name,
              mx: mx.map((host) => `${tenant(host)}.provbench-plain.net`),
              acceptsAll: false,
              profile: 'default',
            }
          : { domain, group: group.name, mx, acceptsAll: group.acceptsAll?.(i) ?? false, profile: group.profile },
      );
    }
  }
  return domains;
}

/** The list and its world; `plain` for the baseline world (every server plain, default profile). */
export function providerWorld(rows: number, plain: boolean): ProviderWorld {
  const domains = allDomains(plain);
  const perDomain = Math.ceil(rows / domains.length);
  const exists = (k: number, d: number) => (k * 3 + d) % 5 < EXISTING_OF_FIVE;
  const mailboxes = new Map<GroupName, string[]>(GROUPS.map((g) => [g.name, []]));
  const existing = new Set<string>();
  domains.forEach((d, index) => {
    for (let k = 0; k < perDomain; k++) {
      if (!exists(k, index)) continue;
      const address = `${localPart(k)}@${d.domain}`;
      mailboxes.get(d.group)!.push(address);
      existing.add(address);
    }
  });

  const zone: Zone = {};
  const smtp: Record<string, SmtpServerSpec> = {};
  const serverOf = {} as Record<GroupName, string>;
  for (const group of GROUPS) {
    const name = `sim-${group.name}`;
    serverOf[group.name] = name;
    const members = domains.filter((d) => d.group === group.name);
    smtp[name] =
      plain || group.name === 'plain'
        ? { address: group.address, behaviour: 'mailboxes', mailboxes: mailboxes.get(group.name)! }
        : {
            address: group.address,
            behaviour: 'provider',
            provider: group.name as ProviderSimName,
            mailboxes: mailboxes.get(group.name)!,
            acceptAllDomains: members.filter((d) => d.acceptsAll).map((d) => d.domain),
          };
    for (const d of members) {
      zone[d.domain] = {
        mx: d.mx.map((host, i) => ({ priority: (i + 1) * 10, exchange: host })),
        ns: [`ns1.${d.domain}`],
        txt: ['v=spf1 -all'],
      };
      for (const host of d.mx) zone[host] = { a: [group.address] };
    }
  }
  zone[CANARY.domain] = { mx: [{ priority: 10, exchange: `mx.${CANARY.domain}` }], ns: [`ns1.${CANARY.domain}`] };
  zone[`mx.${CANARY.domain}`] = { a: [CANARY.address] };
  // Its own server, so the health checks' connections never show in a provider's log.
  smtp.canary = { address: CANARY.address, behaviour: 'mailboxes' };

  const addresses: string[] = [];
  for (let i = 0; i < rows; i++) addresses.push(`${localPart(Math.floor(i / domains.length))}@${domains[i % domains.length]!.domain}`);
  const byName = new Map(domains.map((d) => [d.domain, d]));
  const domainOf = (address: string) => {
    const found = byName.get(address.slice(address.lastIndexOf('@') + 1));
    if (!found) throw new Error(`${address} is not at a domain of the world`);
    return found;
  };
  return {
    spec: { zone, smtp, domains: { canary: CANARY.domain }, addresses: {} },
    domains,
    addresses,
    accepts: (address) => existing.has(address) || domainOf(address).acceptsAll,
    domainOf,
    serverOf,
  };
}
