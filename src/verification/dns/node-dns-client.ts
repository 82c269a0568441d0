/**
 * DnsClient over node:dns (c-ares), pointed at MAILSURE_DNS_SERVERS when set. Error codes as
 * c-ares reports them: ENOTFOUND is NXDOMAIN, ENODATA an empty NOERROR answer, ESERVFAIL,
 * ETIMEOUT, ECONNREFUSED and EREFUSED mean we got no usable answer.
 */
import { Resolver } from 'node:dns/promises';
import type { AddressAnswer, DnsClient, MailRoute, MxHost } from './mail-route.js';

const PER_TRY_TIMEOUT_MS = 2_000;

export function createNodeDnsClient(servers: string[]): DnsClient & { reverse(ip: string, deadline: number): Promise<string[] | null> } {
  const resolver = new Resolver({ timeout: PER_TRY_TIMEOUT_MS, tries: 2 });
  if (servers.length > 0) resolver.setServers(servers);

  const addresses = async (host: string, deadline: number): Promise<AddressAnswer> => {
    const [v4, v6] = await Promise.all([
      settle(resolver.resolve4(host, { ttl: true }), deadline),
      settle(resolver.resolve6(host, { ttl: true }), deadline),
    ]);
    const found = [...(v4.ok ? v4.value : []), ...(v6.ok ? v6.value : [])];
    if (found.length > 0) {
      return { kind: 'addresses', addresses: found.map((r) => r.address), ttlSeconds: Math.min(...found.map((r) => r.ttl)) };
    }
    const codes = [v4, v6].map((r) => (r.ok ? 'ENODATA' : r.code));
    if (codes.every((c) => c === 'ENOTFOUND')) return { kind: 'nxdomain' };
    if (codes.every((c) => c === 'ENODATA' || c === 'ENOTFOUND')) return { kind: 'none' };
    return { kind: 'unavailable', reason: codes.find((c) => c !== 'ENODATA' && c !== 'ENOTFOUND') ?? 'unknown' };
  };

  return {
    addresses,
    async mailRoute(domain, deadline): Promise<MailRoute> {
      const mx = await settle(resolver.resolveMx(domain), deadline);
      if (mx.ok) {
        const hosts: MxHost[] = mx.value
          .map((r) => ({ name: r.exchange.toLowerCase().replace(/\.$/, ''), priority: r.priority }))
          .sort((a, b) => a.priority - b.priority || a.name.localeCompare(b.name));
        // RFC 7505: a single MX of "." (which c-ares reports as an empty exchange) means no mail.
        const real = hosts.filter((h) => h.name !== '');
        if (real.length === 0) return hosts.length > 0 ? { kind: 'null-mx' } : await implicitRoute(domain, deadline);
        return { kind: 'mx', hosts: real };
      }
      if (mx.code === 'ENOTFOUND') return { kind: 'nxdomain' };
      if (mx.code === 'ENODATA') return implicitRoute(domain, deadline);
      return { kind: 'unavailable', reason: mx.code };
    },
    async reverse(ip, deadline) {
      const names = await settle(resolver.reverse(ip), deadline);
      if (names.ok) return names.value.map((n) => n.toLowerCase().replace(/\.$/, ''));
      return names.code === 'ENOTFOUND' || names.code === 'ENODATA' ? [] : null;
    },
    async nameServers(domain, deadline) {
      const ns = await settle(resolver.resolveNs(domain), deadline);
      if (ns.ok) return ns.value.map((n) => n.toLowerCase().replace(/\.$/, ''));
      return ns.code === 'ENOTFOUND' || ns.code === 'ENODATA' ? [] : null;
    },
  };

  async function implicitRoute(domain: string, deadline: number): Promise<MailRoute> {
    const answer = await addresses(domain, deadline);
    switch (answer.kind) {
      case 'addresses':
        return { kind: 'implicit', hosts: [{ name: domain, priority: 0 }] };
      case 'nxdomain':
        return { kind: 'nxdomain' };
      case 'none':
        return { kind: 'no-mail' };
      default:
        return { kind: 'unavailable', reason: answer.reason };
    }
  }
}

type Settled<T> = { ok: true; value: T } | { ok: false; code: string };

/** The query's outcome, or ETIMEOUT once the verdict's deadline passes. */
async function settle<T>(query: Promise<T>, deadline: number): Promise<Settled<T>> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) return { ok: false, code: 'ETIMEOUT' };
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<Settled<T>>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, code: 'ETIMEOUT' }), remaining);
  });
  try {
    return await Promise.race([
      query.then(
        (value): Settled<T> => ({ ok: true, value }),
        (error: NodeJS.ErrnoException): Settled<T> => ({ ok: false, code: error.code ?? 'EUNKNOWN' }),
      ),
      expired,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
