/**
 * The world's DNS server as node:dns sees it. What Node (c-ares) reports for each case, which is
 * what the product's DNS stage has to map:
 *   NOERROR with answers        → the records (resolve4/6 with {ttl:true} carry the TTL)
 *   null MX (`MX 0 .`)          → [{ exchange: '', priority: 0 }]  (the root name comes back empty)
 *   NXDOMAIN (RCODE 3)          → ENOTFOUND
 *   SERVFAIL (RCODE 2)          → ESERVFAIL
 *   NOERROR, empty answer       → ENODATA
 *   no answer at all            → ETIMEOUT, after about timeout × 2 with tries: 1 (c-ares' own backoff)
 *   nothing listening           → ECONNREFUSED
 */
import { createConnection } from 'node:net';
import { Resolver } from 'node:dns/promises';
import { Packet } from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from './dns-server.js';
import { defaultScenario } from './scenario.js';

const { domains } = defaultScenario;
let dns: TestDnsServer;
let resolver: Resolver;

beforeAll(async () => {
  dns = await startDnsServer(defaultScenario.zone);
  resolver = new Resolver({ timeout: 100, tries: 1 });
  resolver.setServers([dns.server]);
});
afterAll(() => dns.close());

async function errorCode(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code;
  }
}

describe('test world DNS', () => {
  it('listens on loopback, on the address the product is pointed at', () => {
    expect(dns.server).toMatch(/^127\.0\.0\.2:\d+$/);
  });

  it('answers MX, A with TTL, AAAA, NS and TXT', async () => {
    expect(await resolver.resolveMx(domains.mailboxOk)).toEqual([{ exchange: `mx.${domains.mailboxOk}`, priority: 10 }]);
    expect(await resolver.resolve4(`mx.${domains.mailboxOk}`, { ttl: true })).toEqual([{ address: '127.0.0.10', ttl: 300 }]);
    expect(await resolver.resolve6(`www.${domains.mailboxOk}`, { ttl: true })).toEqual([{ address: '::1', ttl: 300 }]);
    expect(await resolver.resolveNs(domains.parked)).toEqual(['ns1.sedoparking.com', 'ns2.sedoparking.com']);
    expect(await resolver.resolveTxt(domains.mailboxOk)).toEqual([['v=spf1 -all']]);
  });

  it('gives each name its own TTL', async () => {
    expect(await resolver.resolve4(`mx.${domains.shortTtl}`, { ttl: true })).toEqual([{ address: '127.0.0.10', ttl: 1 }]);
  });

  it('answers ANY with every record; node reports TTLs for A/AAAA only, never for MX', async () => {
    const records = await resolver.resolveAny(domains.mailboxOk);
    expect(records).toContainEqual({ type: 'MX', exchange: `mx.${domains.mailboxOk}`, priority: 10 });
    expect(records).toContainEqual({ type: 'A', address: '127.0.0.10', ttl: 300 });
  });

  it('orders nothing itself: MX preference is the client’s job', async () => {
    const mx = await resolver.resolveMx(domains.multiMx);
    expect(mx.map((record) => record.priority).sort()).toEqual([10, 20]);
    expect(await resolver.resolve4(`mx.${domains.multiAddress}`)).toEqual(['127.0.0.16', '127.0.0.10']);
  });

  it('null MX comes back as one MX 0 with an empty exchange', async () => {
    expect(await resolver.resolveMx(domains.nullMx)).toEqual([{ exchange: '', priority: 0 }]);
  });

  it('A-only domain: MX is NODATA (ENODATA), A answers', async () => {
    expect(await errorCode(resolver.resolveMx(domains.aOnly))).toBe('ENODATA');
    expect(await resolver.resolve4(domains.aOnly)).toEqual(['127.0.0.10']);
  });

  it('NXDOMAIN is ENOTFOUND', async () => {
    expect(await errorCode(resolver.resolveMx(domains.nxdomain))).toBe('ENOTFOUND');
    expect(await errorCode(resolver.resolve4(domains.nxdomain))).toBe('ENOTFOUND');
  });

  it('no MX and no address: ENODATA for MX, A and AAAA', async () => {
    expect(await errorCode(resolver.resolveMx(domains.noMail))).toBe('ENODATA');
    expect(await errorCode(resolver.resolve4(domains.noMail))).toBe('ENODATA');
    expect(await errorCode(resolver.resolve6(domains.noMail))).toBe('ENODATA');
  });

  it('SERVFAIL is ESERVFAIL', async () => {
    expect(await errorCode(resolver.resolveMx(domains.servfail))).toBe('ESERVFAIL');
  });

  it('a name that never answers is ETIMEOUT under a short resolver timeout', async () => {
    const started = Date.now();
    expect(await errorCode(resolver.resolveMx(domains.dnsTimeout))).toBe('ETIMEOUT');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('matches names case-insensitively, with or without the trailing dot', async () => {
    expect(await resolver.resolveMx(domains.mailboxOk.toUpperCase())).toHaveLength(1);
    expect(await resolver.resolveMx(`${domains.mailboxOk}.`)).toHaveLength(1);
  });

  it('logs every question, for cache assertions', async () => {
    const before = dns.queryCount(domains.acceptAll, 'mx');
    await resolver.resolveMx(domains.acceptAll);
    expect(dns.queryCount(domains.acceptAll, 'mx')).toBe(before + 1);
    expect(dns.queryCount(domains.acceptAll, 'a')).toBe(0);
  });

  it('answers over TCP on the same port', async () => {
    const query = new Packet();
    query.header.id = 4242;
    query.header.rd = 1;
    query.questions.push({ name: domains.mailboxOk, type: Packet.TYPE.MX, class: Packet.CLASS.IN } as Packet['questions'][number]);
    const wire = query.toBuffer();
    const frame = Buffer.concat([Buffer.from([wire.length >> 8, wire.length & 0xff]), wire]);
    const reply = await new Promise<Buffer>((resolve, reject) => {
      const socket = createConnection({ host: dns.address, port: dns.port }, () => socket.write(frame));
      let data = Buffer.alloc(0);
      socket.on('data', (chunk) => {
        data = Buffer.concat([data, chunk]);
        if (data.length >= 2 && data.length >= 2 + data.readUInt16BE(0)) {
          socket.destroy();
          resolve(data.subarray(2));
        }
      });
      socket.on('error', reject);
    });
    const parsed = Packet.parse(reply);
    expect(parsed.header.id).toBe(4242);
    expect(parsed.answers[0]?.exchange).toBe(`mx.${domains.mailboxOk}`);
    expect(dns.queries.at(-1)?.transport).toBe('tcp');
  });
});

describe('test world DNS, lifecycle', () => {
  it('falls back to TCP when an answer does not fit in UDP (c-ares retries on TC)', async () => {
    const big = Array.from({ length: 12 }, (_, i) => `${i}-${'t'.repeat(200)}`);
    const server = await startDnsServer({ 'big-txt.com': { txt: big } });
    try {
      const local = new Resolver({ timeout: 500, tries: 1 });
      local.setServers([server.server]);
      expect(await local.resolveTxt('big-txt.com')).toHaveLength(12);
      expect(server.queries.map((q) => q.transport)).toEqual(['udp', 'tcp']);
    } finally {
      await server.close();
    }
  });

  it('setZone replaces the answers', async () => {
    const server = await startDnsServer({ 'moving.com': { a: ['127.0.0.10'] } });
    try {
      const local = new Resolver({ timeout: 200, tries: 1 });
      local.setServers([server.server]);
      expect(await local.resolve4('moving.com')).toEqual(['127.0.0.10']);
      server.setZone({ 'moving.com': { a: ['127.0.0.11'] } });
      expect(await local.resolve4('moving.com')).toEqual(['127.0.0.11']);
    } finally {
      await server.close();
    }
  });

  it('after close, a resolver pointed at it gets ECONNREFUSED', async () => {
    const server = await startDnsServer({});
    await server.close();
    const local = new Resolver({ timeout: 200, tries: 1 });
    local.setServers([server.server]);
    expect(await errorCode(local.resolveMx('anything.com'))).toBe('ECONNREFUSED');
  });

  it('two servers at once get different ports', async () => {
    const [a, b] = await Promise.all([startDnsServer({}), startDnsServer({})]);
    try {
      expect(a.port).not.toBe(b.port);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
