import { describe, expect, it } from 'vitest';
import { createMemoryFactCache } from '../fact-cache.js';
import { createCachedDnsClient, MX_TTL_MS, NEGATIVE_TTL_MS } from './cached-dns-client.js';
import type { AddressAnswer, DnsClient, MailRoute } from './mail-route.js';

function setup(routes: Record<string, MailRoute>, addresses: Record<string, AddressAnswer>) {
  let now = 0;
  const clock = { now: () => now };
  const asked: string[] = [];
  const inner: DnsClient = {
    async mailRoute(domain) {
      asked.push(`mx ${domain}`);
      return routes[domain] ?? { kind: 'nxdomain' };
    },
    async addresses(host) {
      asked.push(`a ${host}`);
      return addresses[host] ?? { kind: 'none' };
    },
    async nameServers(domain) {
      asked.push(`ns ${domain}`);
      return [`ns1.${domain}`];
    },
  };
  const dns = createCachedDnsClient(inner, {
    routes: createMemoryFactCache(clock),
    addresses: createMemoryFactCache(clock),
    nameServers: createMemoryFactCache(clock),
  });
  return { dns, asked, advance: (ms: number) => (now += ms) };
}

describe('cached DNS client', () => {
  it('keeps MX answers five minutes and negative answers one minute', async () => {
    const { dns, asked, advance } = setup({ 'a.com': { kind: 'mx', hosts: [{ name: 'mx.a.com', priority: 1 }] } }, {});
    await dns.mailRoute('a.com', Infinity);
    await dns.mailRoute('nope.com', Infinity);
    advance(NEGATIVE_TTL_MS - 1);
    await dns.mailRoute('a.com', Infinity);
    await dns.mailRoute('nope.com', Infinity);
    expect(asked).toEqual(['mx a.com', 'mx nope.com']);
    advance(2);
    await dns.mailRoute('nope.com', Infinity);
    advance(MX_TTL_MS);
    await dns.mailRoute('a.com', Infinity);
    expect(asked).toEqual(['mx a.com', 'mx nope.com', 'mx nope.com', 'mx a.com']);
  });

  it('never caches a missing answer', async () => {
    const { dns, asked } = setup(
      { 'sick.com': { kind: 'unavailable', reason: 'ESERVFAIL' } },
      { 'mx.sick.com': { kind: 'unavailable', reason: 'ETIMEOUT' } },
    );
    await dns.mailRoute('sick.com', Infinity);
    await dns.mailRoute('sick.com', Infinity);
    await dns.addresses('mx.sick.com', Infinity);
    await dns.addresses('mx.sick.com', Infinity);
    expect(asked).toEqual(['mx sick.com', 'mx sick.com', 'a mx.sick.com', 'a mx.sick.com']);
  });

  it('keeps address answers for their own TTL, within bounds', async () => {
    const { dns, asked, advance } = setup(
      {},
      {
        'short.com': { kind: 'addresses', addresses: ['8.8.8.8'], ttlSeconds: 1 },
        'mid.com': { kind: 'addresses', addresses: ['8.8.4.4'], ttlSeconds: 120 },
      },
    );
    await dns.addresses('short.com', Infinity);
    await dns.addresses('mid.com', Infinity);
    advance(29_000);
    await dns.addresses('short.com', Infinity); // bounded below at 30 s
    advance(2_000);
    await dns.addresses('short.com', Infinity);
    await dns.addresses('mid.com', Infinity);
    advance(90_000);
    await dns.addresses('mid.com', Infinity);
    expect(asked).toEqual(['a short.com', 'a mid.com', 'a short.com', 'a mid.com']);
  });
});
