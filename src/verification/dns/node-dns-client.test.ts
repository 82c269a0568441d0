/** The DNS client against the test world's real DNS server on loopback. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestWorld, type TestWorld } from '../../../test/helpers/world/index.js';
import { createNodeDnsClient } from './node-dns-client.js';

let world: TestWorld;
beforeAll(async () => {
  world = await startTestWorld();
});
afterAll(() => world.close());

const soon = () => Date.now() + 3_000;

describe('node DNS client', () => {
  it('reads every shape of mail route', async () => {
    const dns = createNodeDnsClient([world.dnsServer]);
    const d = world.domains;
    expect(await dns.mailRoute(d.mailboxOk, soon())).toEqual({ kind: 'mx', hosts: [{ name: `mx.${d.mailboxOk}`, priority: 10 }] });
    expect(await dns.mailRoute(d.multiMx, soon())).toEqual({
      kind: 'mx',
      hosts: [
        { name: `mx1.${d.multiMx}`, priority: 10 },
        { name: `mx2.${d.multiMx}`, priority: 20 },
      ],
    });
    expect(await dns.mailRoute(d.aOnly, soon())).toEqual({ kind: 'implicit', hosts: [{ name: d.aOnly, priority: 0 }] });
    expect(await dns.mailRoute(d.nullMx, soon())).toEqual({ kind: 'null-mx' });
    expect(await dns.mailRoute(d.nxdomain, soon())).toEqual({ kind: 'nxdomain' });
    expect(await dns.mailRoute(d.noMail, soon())).toEqual({ kind: 'no-mail' });
    expect(await dns.mailRoute(d.servfail, soon())).toMatchObject({ kind: 'unavailable', reason: 'ESERVFAIL' });
  });

  it('gives up at the deadline when the server never answers', async () => {
    const dns = createNodeDnsClient([world.dnsServer]);
    const started = Date.now();
    expect(await dns.mailRoute(world.domains.dnsTimeout, started + 300)).toEqual({ kind: 'unavailable', reason: 'ETIMEOUT' });
    // At the deadline (0.3 s), not at the resolver's own time-out (2 s a try, two tries).
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('resolves host addresses with their TTL, and name servers', async () => {
    const dns = createNodeDnsClient([world.dnsServer]);
    expect(await dns.addresses(`mx.${world.domains.mailboxOk}`, soon())).toMatchObject({ kind: 'addresses', addresses: ['127.0.0.10'] });
    const short = await dns.addresses(`mx.${world.domains.shortTtl}`, soon());
    expect(short).toMatchObject({ kind: 'addresses', ttlSeconds: 1 });
    expect(await dns.addresses(`none.${world.domains.nxdomain}`, soon())).toEqual({ kind: 'nxdomain' });
    expect(await dns.nameServers(world.domains.parked, soon())).toEqual(['ns1.sedoparking.com', 'ns2.sedoparking.com']);
    expect(await dns.nameServers(world.domains.nxdomain, soon())).toEqual([]);
    expect(await dns.nameServers(world.domains.servfail, soon())).toBeNull();
  });
});
