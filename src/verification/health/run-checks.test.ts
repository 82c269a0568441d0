import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AddressAnswer, MailRoute } from '../dns/mail-route.js';
import type { BannerCheck } from './decide-egress.js';
import { checkEgress, checkResolver, gatherIdentity, reverseName, type HealthCheckDeps, type HealthDns } from './run-checks.js';

const NOW = 1_700_000_000_000;
const now = () => NOW;
const mx = (...names: string[]): MailRoute => ({ kind: 'mx', hosts: names.map((name, i) => ({ name, priority: i * 10 })) });
const addrs = (...addresses: string[]): AddressAnswer => ({ kind: 'addresses', addresses, ttlSeconds: 60 });

/** A resolver answering from tables, recording every question. */
function fakeDns(tables: {
  routes?: Record<string, MailRoute>;
  addresses?: Record<string, AddressAnswer>;
  ptr?: Record<string, string[] | null>;
}) {
  const asked: { q: string; name: string; deadline: number }[] = [];
  const dns: HealthDns = {
    mailRoute: (name, deadline) => {
      asked.push({ q: 'mx', name, deadline });
      return Promise.resolve(tables.routes?.[name] ?? { kind: 'nxdomain' });
    },
    addresses: (name, deadline) => {
      asked.push({ q: 'a', name, deadline });
      return Promise.resolve(tables.addresses?.[name] ?? { kind: 'nxdomain' });
    },
    reverse: (ip, deadline) => {
      asked.push({ q: 'ptr', name: ip, deadline });
      return Promise.resolve(tables.ptr && ip in tables.ptr ? (tables.ptr[ip] ?? null) : []);
    },
  };
  return { dns, asked };
}

function deps(dns: HealthDns, over: Partial<HealthCheckDeps> = {}) {
  const banners: { host: string; address: string }[] = [];
  const d: HealthCheckDeps = {
    dns,
    banner: (host, address): Promise<BannerCheck> => {
      banners.push({ host, address });
      return Promise.resolve({ host, address, outcome: 'banner' });
    },
    canaries: [],
    smtpPort: 25,
    helo: 'probe.example.net',
    blocklistZones: [],
    allowPrivateTargets: false,
    randomName: () => 'nx-random.com',
    ...over,
  };
  return { d, banners };
}

describe('reverseName', () => {
  it('reverses IPv4 octets', () => {
    expect(reverseName('1.2.3.4')).toBe('4.3.2.1');
    expect(reverseName('198.51.100.7')).toBe('7.100.51.198');
  });

  it('reverses IPv6 by nibbles, full or compressed (RFC 5782 §2.4)', () => {
    const db8 = '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2';
    expect(reverseName('2001:db8::1')).toBe(db8);
    expect(reverseName('2001:0db8:0000:0000:0000:0000:0000:0001')).toBe(db8);
    expect(reverseName('2001:DB8:0:0:0:0:0:1')).toBe(db8);
    expect(reverseName('::1')).toBe(`1${'.0'.repeat(31)}`);
    expect(reverseName('::')).toBe(`0${'.0'.repeat(31)}`);
    expect(reverseName('fe80::')).toBe(`${'0.'.repeat(28)}0.8.e.f`);
    expect(reverseName('1:2:3:4:5:6:7:8')).toBe('8.0.0.0.7.0.0.0.6.0.0.0.5.0.0.0.4.0.0.0.3.0.0.0.2.0.0.0.1.0.0.0');
  });

  it('reads an IPv4-mapped address as its IPv4 address, and a dotted IPv6 tail as two groups', () => {
    expect(reverseName('::ffff:1.2.3.4')).toBe('4.3.2.1');
    expect(reverseName('64:ff9b::102:304')).toBe(reverseName('64:ff9b::1.2.3.4'));
  });

  it('answers undefined for what is not an address', () => {
    for (const bad of [
      '',
      'mail.example.com',
      '1.2.3',
      '1.2.3.4.5',
      '1:2:3:4:5:6:7',
      '1:2:3:4:5:6:7:8:9',
      'g::1',
      '12345::1',
      'fe80::1%eth0',
      '1::2::3',
      '1:2:3:4:5:6:7:8::',
      '999.1.1.1',
    ]) {
      expect(reverseName(bad)).toBeUndefined();
    }
  });

  it('gives back an IPv4 address when its reversed name is reversed again', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        const reversed = reverseName(ip)!;
        expect(reversed.split('.').reverse().join('.')).toBe(ip);
        expect(reverseName(reversed)).toBe(ip);
      }),
    );
  });

  it('gives 32 nibbles for any IPv6 address, the zero-padded hex read backwards, compressed or not', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }), (groups) => {
        const full = groups.map((g) => g.toString(16)).join(':');
        const name = reverseName(full)!;
        expect(name).toHaveLength(63);
        expect(name.split('.').reverse().join('')).toBe(groups.map((g) => g.toString(16).padStart(4, '0')).join(''));
        // The same address in its canonical compressed form names the same thing.
        const compressed = new URL(`http://[${full}]/`).hostname.slice(1, -1);
        expect(reverseName(compressed)).toBe(name);
      }),
    );
  });
});

describe('checkResolver', () => {
  it('asks each canary and the random name, with one deadline, and decides on the answers', async () => {
    const { dns, asked } = fakeDns({
      routes: { 'gmail.com': mx('gmail-smtp-in.l.google.com'), 'outlook.com': mx('outlook-com.olc.protection.outlook.com') },
    });
    const { d } = deps(dns, { canaries: ['gmail.com', 'outlook.com'], dnsTimeoutMs: 2_000 });
    const { health, routes } = await checkResolver(d, now);
    expect(asked.map((a) => a.name).sort()).toEqual(['gmail.com', 'nx-random.com', 'outlook.com']);
    expect(asked.every((a) => a.q === 'mx' && a.deadline === NOW + 2_000)).toBe(true);
    expect(health.state).toBe('ok');
    expect(health.checkedAt).toBe(NOW);
    expect([...routes.keys()]).toEqual(['gmail.com', 'outlook.com']);
    expect(routes.get('gmail.com')).toEqual(mx('gmail-smtp-in.l.google.com'));
  });

  it('fails a resolver that answers the random name', async () => {
    const { dns } = fakeDns({ routes: { 'gmail.com': mx('a.google.com'), 'nx-random.com': mx('ads.isp.example') } });
    const { health } = await checkResolver(deps(dns, { canaries: ['gmail.com'] }).d, now);
    expect(health.state).toBe('failed');
  });

  it('makes up a fresh random name under .com by default, with an 8 s deadline', async () => {
    const { dns, asked } = fakeDns({});
    const { d } = deps(dns);
    delete d.randomName;
    await checkResolver(d, now);
    await checkResolver(d, now);
    const names = asked.map((a) => a.name);
    for (const name of names) expect(name).toMatch(/^mailsure-nx-[a-z0-9]{20}\.com$/);
    expect(names[0]).not.toBe(names[1]);
    expect(asked[0]!.deadline).toBe(NOW + 8_000);
  });
});

describe('checkEgress', () => {
  const routes = (entries: [string, MailRoute][]) => new Map(entries);

  it('connects to the first MX host of at most three canaries', async () => {
    const { dns, asked } = fakeDns({
      addresses: {
        'mx1.a.com': addrs('8.8.8.1'),
        'mx1.b.com': addrs('8.8.8.2'),
        'mx1.c.com': addrs('8.8.8.3'),
        'mx1.d.com': addrs('8.8.8.4'),
      },
    });
    const { d, banners } = deps(dns);
    const health = await checkEgress(
      d,
      routes([
        ['a.com', mx('mx1.a.com', 'mx2.a.com')],
        ['b.com', mx('mx1.b.com')],
        ['c.com', mx('mx1.c.com')],
        ['d.com', mx('mx1.d.com')],
      ]),
      now,
    );
    expect(asked.map((a) => a.name)).toEqual(['mx1.a.com', 'mx1.b.com', 'mx1.c.com']);
    expect(banners).toEqual([
      { host: 'mx1.a.com', address: '8.8.8.1' },
      { host: 'mx1.b.com', address: '8.8.8.2' },
      { host: 'mx1.c.com', address: '8.8.8.3' },
    ]);
    expect(health.state).toBe('ok');
    expect(health.evidence).toEqual([
      'mx1.a.com [8.8.8.1]:25: banner received',
      'mx1.b.com [8.8.8.2]:25: banner received',
      'mx1.c.com [8.8.8.3]:25: banner received',
    ]);
  });

  it('skips canaries without MX and hosts without addresses', async () => {
    const { dns } = fakeDns({ addresses: { 'mx.b.com': addrs('8.8.4.4') } });
    const { d, banners } = deps(dns);
    await checkEgress(
      d,
      routes([
        ['n.com', { kind: 'nxdomain' }],
        ['i.com', { kind: 'implicit', hosts: [{ name: 'i.com', priority: 0 }] }],
        ['a.com', mx('mx.a.com')],
        ['b.com', mx('mx.b.com')],
      ]),
      now,
    );
    expect(banners).toEqual([{ host: 'mx.b.com', address: '8.8.4.4' }]);
  });

  it('connects to the first public address only, never to a private one unless allowed', async () => {
    const table = { addresses: { 'mx.a.com': addrs('10.0.0.5', '127.0.0.1', '8.8.8.8', '1.1.1.1'), 'mx.p.com': addrs('192.168.1.1') } };
    const strict = deps(fakeDns(table).dns);
    const health = await checkEgress(
      strict.d,
      routes([
        ['a.com', mx('mx.a.com')],
        ['p.com', mx('mx.p.com')],
      ]),
      now,
    );
    expect(strict.banners).toEqual([{ host: 'mx.a.com', address: '8.8.8.8' }]);
    expect(health.evidence).toHaveLength(1);

    const lab = deps(fakeDns(table).dns, { allowPrivateTargets: true });
    await checkEgress(
      lab.d,
      routes([
        ['a.com', mx('mx.a.com')],
        ['p.com', mx('mx.p.com')],
      ]),
      now,
    );
    expect(lab.banners).toEqual([
      { host: 'mx.a.com', address: '10.0.0.5' },
      { host: 'mx.p.com', address: '192.168.1.1' },
    ]);
  });

  it('is unknown when there is nothing to connect to', async () => {
    const { dns } = fakeDns({ addresses: { 'mx.a.com': addrs('10.0.0.1') } });
    const { d, banners } = deps(dns);
    expect((await checkEgress(d, routes([['a.com', mx('mx.a.com')]]), now)).state).toBe('unknown');
    expect((await checkEgress(d, new Map(), now)).state).toBe('unknown');
    expect(banners).toEqual([]);
  });

  it('fails, naming the port, when every banner check failed', async () => {
    const { dns } = fakeDns({ addresses: { 'mx.a.com': addrs('8.8.8.8') } });
    const { d } = deps(dns, { smtpPort: 2525, banner: (host, address) => Promise.resolve({ host, address, outcome: 'connect-timeout' }) });
    const health = await checkEgress(d, routes([['a.com', mx('mx.a.com')]]), now);
    expect(health.state).toBe('failed');
    expect(health.hint).toMatch(/port 2525/);
  });
});

describe('gatherIdentity', () => {
  it('looks up the HELO name, the PTR, the forward of each PTR name and each block list', async () => {
    const { dns, asked } = fakeDns({
      addresses: {
        'probe.example.net': addrs('8.8.8.8'),
        'a.example.net': addrs('8.8.8.8'),
        'b.example.net': { kind: 'none' },
        '8.8.8.8.zen.spamhaus.org': addrs('127.0.0.2'),
      },
      ptr: { '8.8.8.8': ['a.example.net', 'b.example.net'] },
    });
    const { d } = deps(dns, { egressIp: '8.8.8.8', blocklistZones: ['zen.spamhaus.org', 'bl.spamcop.net'], dnsTimeoutMs: 1_000 });
    const identity = await gatherIdentity(d, now);
    expect(identity).toEqual({
      helo: { name: 'probe.example.net', answer: addrs('8.8.8.8') },
      egress: {
        ip: '8.8.8.8',
        ptr: ['a.example.net', 'b.example.net'],
        forward: { 'a.example.net': addrs('8.8.8.8'), 'b.example.net': { kind: 'none' } },
        blocklists: [
          { zone: 'zen.spamhaus.org', answer: addrs('127.0.0.2') },
          { zone: 'bl.spamcop.net', answer: { kind: 'nxdomain' } },
        ],
      },
    });
    expect(asked.map((a) => `${a.q} ${a.name}`)).toEqual([
      'a probe.example.net',
      'ptr 8.8.8.8',
      'a a.example.net',
      'a b.example.net',
      'a 8.8.8.8.zen.spamhaus.org',
      'a 8.8.8.8.bl.spamcop.net',
    ]);
    expect(asked.every((a) => a.deadline === NOW + 1_000)).toBe(true);
  });

  it('queries block lists of an IPv6 egress address by nibbles', async () => {
    const { dns, asked } = fakeDns({});
    await gatherIdentity(deps(dns, { egressIp: '2001:db8::1', blocklistZones: ['bl.example'] }).d, now);
    expect(asked.at(-1)!.name).toBe(`${reverseName('2001:db8::1')}.bl.example`);
  });

  it('follows at most five PTR names, and none when the PTR query got no answer', async () => {
    const many = fakeDns({ ptr: { '8.8.8.8': ['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7'].map((n) => `${n}.example`) } });
    const identity = await gatherIdentity(deps(many.dns, { egressIp: '8.8.8.8' }).d, now);
    expect(Object.keys(identity.egress!.forward)).toEqual(['n1.example', 'n2.example', 'n3.example', 'n4.example', 'n5.example']);

    const silent = fakeDns({ ptr: { '8.8.8.8': null } });
    const none = await gatherIdentity(deps(silent.dns, { egressIp: '8.8.8.8' }).d, now);
    expect(none.egress).toEqual({ ip: '8.8.8.8', ptr: null, forward: {}, blocklists: [] });
  });

  it('does not look up a HELO name that is not fully qualified, nor anything of an egress address not given', async () => {
    const { dns, asked } = fakeDns({});
    const identity = await gatherIdentity(deps(dns, { helo: 'localhost', blocklistZones: ['zen.spamhaus.org'] }).d, now);
    expect(identity).toEqual({ helo: { name: 'localhost', answer: { kind: 'none' } } });
    expect(asked).toEqual([]);
  });

  it('asks no block list for an egress address it cannot reverse, and says so per zone', async () => {
    const { dns, asked } = fakeDns({});
    const identity = await gatherIdentity(deps(dns, { egressIp: 'not-an-ip', blocklistZones: ['zen.spamhaus.org'] }).d, now);
    expect(identity.egress!.blocklists).toEqual([
      { zone: 'zen.spamhaus.org', answer: { kind: 'unavailable', reason: 'not-an-ip is not an address to look up' } },
    ]);
    expect(asked.map((a) => a.q)).toEqual(['a', 'ptr']);
  });
});
