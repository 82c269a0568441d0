/**
 * The prober-health checks' I/O: asks the canaries, the random name, the HELO name, reverse DNS
 * and block lists through the resolver every verdict uses (never a cache), and connects to the
 * canaries' MX hosts. Each result goes to its pure decision (decide-*.ts).
 */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { AddressAnswer, MailRoute } from '../dns/mail-route.js';
import { allowedTargets } from '../dns/target-policy.js';
import { decideEgress, type BannerCheck } from './decide-egress.js';
import type { IdentityEvidence } from './decide-identity.js';
import { decideResolver } from './decide-resolver.js';
import type { ConcernHealth } from './health-state.js';

/** The DNS questions the checks ask, answered by the resolver itself (no cache in between). */
export interface HealthDns {
  mailRoute(domain: string, deadline: number): Promise<MailRoute>;
  addresses(host: string, deadline: number): Promise<AddressAnswer>;
  /** PTR names of an address; null when DNS did not answer. */
  reverse(ip: string, deadline: number): Promise<string[] | null>;
}

export interface HealthCheckDeps {
  dns: HealthDns;
  /** Connect to one MX address and read its banner, the way a probe to that host would go (its proxy). */
  banner(host: string, address: string): Promise<BannerCheck>;
  /** The proxy probes go through by default (`socks5://host:port`), for the operator's hints. */
  via?: string;
  canaries: readonly string[];
  smtpPort: number;
  helo: string;
  /** MAIL FROM (`''`: the null sender), checked like the HELO name: its domain must receive mail. */
  from?: string;
  egressIp?: string;
  blocklistZones: readonly string[];
  allowPrivateTargets: boolean;
  /** How long DNS questions may take (default 8 s). */
  dnsTimeoutMs?: number;
  randomName?: () => string;
}

/** At most this many canary MX hosts are connected to per check. */
const CANARY_HOSTS = 3;

export async function checkResolver(
  deps: HealthCheckDeps,
  now: () => number,
): Promise<{ health: ConcernHealth; routes: Map<string, MailRoute> }> {
  const deadline = now() + (deps.dnsTimeoutMs ?? 8_000);
  const random = (deps.randomName ?? randomName)();
  const [canaries, randomRoute] = await Promise.all([
    Promise.all(deps.canaries.map(async (domain) => ({ domain, route: await deps.dns.mailRoute(domain, deadline) }))),
    deps.dns.mailRoute(random, deadline),
  ]);
  return {
    health: decideResolver({ canaries, random: { domain: random, route: randomRoute } }, now()),
    routes: new Map(canaries.map((c) => [c.domain, c.route])),
  };
}

/** Connects to the first MX host of each canary (up to three) whose answer we have. */
export async function checkEgress(deps: HealthCheckDeps, routes: Map<string, MailRoute>, now: () => number): Promise<ConcernHealth> {
  const deadline = now() + (deps.dnsTimeoutMs ?? 8_000);
  const hosts = [...routes.values()].flatMap((route) => (route.kind === 'mx' ? [route.hosts[0]!.name] : [])).slice(0, CANARY_HOSTS);
  const targets = await Promise.all(
    hosts.map(async (host) => {
      const answer = await deps.dns.addresses(host, deadline);
      const permitted = answer.kind === 'addresses' ? allowedTargets(answer.addresses, deps.allowPrivateTargets) : [];
      return permitted[0] === undefined ? undefined : { host, address: permitted[0] };
    }),
  );
  const checks = await Promise.all(targets.flatMap((t) => (t ? [deps.banner(t.host, t.address)] : [])));
  return decideEgress(checks, deps.smtpPort, now());
}

/** The DNS side of the identity check; the refusals seen in real probes are added by the caller. */
export async function gatherIdentity(deps: HealthCheckDeps, now: () => number): Promise<Omit<IdentityEvidence, 'refusals'>> {
  const deadline = now() + (deps.dnsTimeoutMs ?? 8_000);
  const from = deps.from;
  const senderDomain = from ? from.slice(from.lastIndexOf('@') + 1) : undefined;
  const [heloAnswer, senderRoute] = await Promise.all([
    deps.helo.includes('.') ? deps.dns.addresses(deps.helo, deadline) : ({ kind: 'none' } as const),
    senderDomain ? deps.dns.mailRoute(senderDomain, deadline) : undefined,
  ]);
  let egress;
  if (deps.egressIp) {
    const ip = deps.egressIp;
    const ptr = await deps.dns.reverse(ip, deadline);
    const forward: Record<string, AddressAnswer> = {};
    for (const name of (ptr ?? []).slice(0, 5)) forward[name] = await deps.dns.addresses(name, deadline);
    const reversed = reverseName(ip);
    const blocklists = reversed
      ? await Promise.all(
          deps.blocklistZones.map(async (zone) => ({ zone, answer: await deps.dns.addresses(`${reversed}.${zone}`, deadline) })),
        )
      : deps.blocklistZones.map((zone) => ({
          zone,
          answer: { kind: 'unavailable' as const, reason: `${ip} is not an address to look up` },
        }));
    egress = { ip, ptr, forward, blocklists };
  }
  const sender = from === undefined ? undefined : { address: from, ...(senderRoute ? { route: senderRoute } : {}) };
  return { helo: { name: deps.helo, answer: heloAnswer }, ...(sender ? { sender } : {}), ...(egress ? { egress } : {}) };
}

/**
 * `1.2.3.4` → `4.3.2.1`; IPv6 by nibbles (RFC 5782 §2.4), an IPv4-mapped address (`::ffff:1.2.3.4`)
 * as its IPv4 address; undefined for anything that is not an address.
 */
export function reverseName(ip: string): string | undefined {
  // A zone index (`fe80::1%eth0`) names an interface, not an address anybody lists.
  const family = ip.includes('%') ? 0 : isIP(ip);
  if (family === 4) return ip.split('.').reverse().join('.');
  if (family !== 6) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return reverseName(mapped[1]!);
  // A dotted IPv4 tail (`64:ff9b::1.2.3.4`) is the last two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  const hex = dotted
    ? `${ip.slice(0, dotted.index)}${((Number(dotted[1]) << 8) | Number(dotted[2])).toString(16)}:${((Number(dotted[3]) << 8) | Number(dotted[4])).toString(16)}`
    : ip;
  const [head = '', tail] = hex.split('::');
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const h = groups(head);
  const t = tail === undefined ? [] : groups(tail);
  const full = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t].map((g) => g.padStart(4, '0'));
  return full.join('').toLowerCase().split('').reverse().join('.');
}

/** A name under a real TLD that nobody registers: 20 random letters and digits. */
function randomName(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return `mailsure-nx-${[...randomBytes(20)].map((b) => alphabet[b % alphabet.length]).join('')}.com`;
}
