import { afterEach, describe, expect, it, vi } from 'vitest';
import type { VerifyDepth } from '../../core/config.js';
import type { Logger } from '../../core/logger.js';
import type { MailRoute } from '../dns/mail-route.js';
import { proxyHint, type BannerOutcome } from './decide-egress.js';
import { createProberHealth, type ProberHealth, type ProberHealthDeps } from './prober-health.js';

const T0 = 1_700_000_000_000;
const RANDOM = 'mailsure-nx-test.com';
const ABOUT_US = '554 5.7.1 Service unavailable; Client host [8.8.8.8] blocked using zen.spamhaus.org';

const started: ProberHealth[] = [];
afterEach(() => {
  for (const h of started.splice(0)) h.stop();
  vi.useRealTimers();
});

/** A prober health over a scripted resolver and banner, on a clock the test moves. */
function setup(depth: VerifyDepth = 'mailbox', over: Partial<ProberHealthDeps> = {}) {
  const world = { canariesExist: true, banner: 'banner' as BannerOutcome, dnsThrows: false };
  const calls = { mx: 0, a: 0, ptr: 0, banner: 0 };
  let t = T0;
  const logged = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const health = createProberHealth({
    depth,
    clock: { now: () => t },
    logger: logged as unknown as Logger,
    nxdomain: { minLookups: 3 },
    checks: {
      dns: {
        mailRoute: (domain) => {
          calls.mx += 1;
          if (world.dnsThrows) return Promise.reject(new Error('resolver exploded'));
          return Promise.resolve<MailRoute>(
            domain !== RANDOM && world.canariesExist
              ? { kind: 'mx', hosts: [{ name: `mx.${domain}`, priority: 10 }] }
              : { kind: 'nxdomain' },
          );
        },
        addresses: () => {
          calls.a += 1;
          return Promise.resolve({ kind: 'addresses', addresses: ['8.8.8.8'], ttlSeconds: 60 });
        },
        reverse: () => {
          calls.ptr += 1;
          return Promise.resolve([]);
        },
      },
      banner: (host, address) => {
        calls.banner += 1;
        return Promise.resolve({ host, address, outcome: world.banner });
      },
      canaries: ['gmail.com', 'outlook.com'],
      smtpPort: 25,
      helo: 'probe.example.net',
      blocklistZones: [],
      allowPrivateTargets: false,
      randomName: () => RANDOM,
    },
    ...over,
  });
  started.push(health);
  return { health, world, calls, logged, advance: (ms: number) => (t += ms), now: () => t };
}

const states = (h: ProberHealth) => Object.fromEntries(Object.entries(h.state()).map(([k, v]) => [k, v.state]));

describe('createProberHealth: checks', () => {
  it('checks resolver, egress and identity on start, and the state follows', async () => {
    const { health, calls } = setup();
    expect(states(health)).toEqual({ resolver: 'unknown', smtp_egress: 'unknown', identity: 'unknown' });
    await health.start();
    expect(states(health)).toEqual({ resolver: 'ok', smtp_egress: 'ok', identity: 'ok' });
    expect(calls).toEqual({ mx: 3, a: 3, ptr: 0, banner: 2 });
    expect(health.state().resolver.checkedAt).toBe(T0);
    expect(health.mailboxAvailable()).toBe(true);
    expect(health.resolverFailed()).toBe(false);
    expect(health.egressBlocked()).toBe(false);
  });

  it('reports a lying resolver and a closed port 25', async () => {
    const lying = setup();
    lying.world.canariesExist = false;
    await lying.health.start();
    expect(lying.health.resolverFailed()).toBe(true);
    expect(lying.health.state().smtp_egress.state).toBe('unknown');
    expect(lying.health.mailboxAvailable()).toBe(false);
    // No canary to connect to: a real probe's connection is proof enough of the way out.
    lying.health.connection('mx.a.com', '8.8.8.8', true, 'connected');
    expect(lying.health.state().smtp_egress.evidence).toEqual(['real probes connect to MX hosts']);

    const closed = setup();
    closed.world.banner = 'connect-timeout';
    await closed.health.start();
    expect(closed.health.egressBlocked()).toBe(true);
    expect(closed.health.state().smtp_egress.hint).toMatch(/port 25/);
    expect(closed.health.mailboxAvailable()).toBe(false);
  });

  it('checks nothing at depth syntax, and trusts negative DNS there', async () => {
    const { health, calls } = setup('syntax');
    await health.start();
    await health.checkNow();
    expect(calls).toEqual({ mx: 0, a: 0, ptr: 0, banner: 0 });
    expect(health.state().resolver).toEqual({ state: 'unknown', evidence: ['not used at depth syntax'] });
    expect(await health.trustNegativeDns(T0 + 1_000)).toBe(true);
    expect(health.mailboxAvailable()).toBe(false);
  });

  it('checks only the resolver at depth domain, and ignores probe observations', async () => {
    const { health, calls, advance } = setup('domain');
    await health.start();
    expect(calls).toEqual({ mx: 3, a: 0, ptr: 0, banner: 0 });
    expect(health.state().resolver.state).toBe('ok');
    expect(health.state().smtp_egress).toEqual({ state: 'unknown', evidence: ['not used at depth domain'] });
    expect(health.state().identity).toEqual({ state: 'unknown', evidence: ['not used at depth domain'] });
    advance(30_000);
    for (const host of ['mx.a.com', 'mx.b.net', 'mx.c.org']) health.connection(host, '8.8.8.8', false, 'refused');
    health.refusal('mx.a.com', ABOUT_US);
    expect(states(health)).toEqual({ resolver: 'ok', smtp_egress: 'unknown', identity: 'unknown' });
    expect(health.mailboxAvailable()).toBe(false);
  });

  it('logs a check that throws and keeps the last state', async () => {
    const { health, world, logged } = setup();
    await health.start();
    world.dnsThrows = true;
    await health.checkNow();
    expect(logged.error).toHaveBeenCalledTimes(1);
    expect(states(health)).toEqual({ resolver: 'ok', smtp_egress: 'ok', identity: 'ok' });
  });

  it('checks again after the interval, sooner while something is wrong', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const ok = setup('mailbox', { intervalMs: 300_000, troubledIntervalMs: 60_000 });
    await ok.health.start();
    await vi.advanceTimersByTimeAsync(299_999);
    expect(ok.calls.mx).toBe(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(ok.calls.mx).toBe(6);
    ok.health.stop();

    const troubled = setup('mailbox', { intervalMs: 300_000, troubledIntervalMs: 60_000 });
    troubled.world.banner = 'refused';
    await troubled.health.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(troubled.calls.mx).toBe(6);
    troubled.health.stop();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(troubled.calls.mx).toBe(6);
  });
});

describe('createProberHealth: trustNegativeDns', () => {
  it('trusts a check up to resolverConfirmMs old as it is, and asks the resolver alone again after that', async () => {
    const { health, calls, advance, now } = setup();
    await health.start();
    advance(5_000);
    expect(await health.trustNegativeDns(now() + 1_000)).toBe(true);
    expect(calls.mx).toBe(3);
    advance(1);
    expect(await health.trustNegativeDns(now() + 1_000)).toBe(true);
    expect(calls.mx).toBe(6);
    expect(calls.banner).toBe(2);
  });

  it('does not trust a resolver that began lying since the last check', async () => {
    const { health, world, advance, now } = setup();
    await health.start();
    world.canariesExist = false;
    advance(10_000);
    expect(await health.trustNegativeDns(now() + 1_000)).toBe(false);
    expect(health.resolverFailed()).toBe(true);
  });

  it('does not trust a resolver it cannot re-ask before the deadline', async () => {
    const { health, advance, now } = setup();
    await health.start();
    advance(10_000);
    expect(await health.trustNegativeDns(now())).toBe(false);
  });

  it('checks first when nothing is known yet', async () => {
    const { health, calls, now } = setup();
    expect(await health.trustNegativeDns(now() + 1_000)).toBe(true);
    expect(calls.mx).toBe(3);
  });
});

describe('createProberHealth: trustConnectionRefusal', () => {
  it('trusts refusals while a canary connection is recent, without checking', async () => {
    const { health, calls, advance, now } = setup();
    await health.start();
    advance(60_000);
    expect(await health.trustConnectionRefusal(now() + 1_000)).toBe(true);
    expect(calls.banner).toBe(2);
  });

  it('never trusts refusals while the egress is failed', async () => {
    const { health, world, calls, now } = setup();
    world.banner = 'refused';
    await health.start();
    expect(await health.trustConnectionRefusal(now() + 1_000)).toBe(false);
    expect(calls.banner).toBe(2);
  });

  it('checks the canaries when no success is recent, and answers by what they say', async () => {
    const { health, world, calls, advance, now } = setup();
    await health.start();
    advance(60_001);
    expect(await health.trustConnectionRefusal(now() + 1_000)).toBe(true);
    expect(calls.banner).toBe(4);
    advance(60_001);
    world.banner = 'connect-timeout';
    expect(await health.trustConnectionRefusal(now() + 1_000)).toBe(false);
    expect(calls.banner).toBe(6);
    expect(health.egressBlocked()).toBe(true);
  });
});

describe('createProberHealth: what real probes show', () => {
  const failAt = (h: ProberHealth, ...hosts: string[]) =>
    hosts.forEach((host) => h.connection(host, '8.8.8.8', false, 'refused: ECONNREFUSED'));

  it('trips the egress breaker at three operators and has the canaries confirm or clear it', async () => {
    const { health, calls, advance } = setup();
    await health.start();
    advance(30_000);
    failAt(health, 'mx.a.com', 'mx.b.net');
    expect(health.egressBlocked()).toBe(false);
    failAt(health, 'mx.c.org');
    expect(health.egressBlocked()).toBe(true);
    expect(health.state().smtp_egress.evidence).toEqual([
      'real probes: c.org: refused: ECONNREFUSED',
      'real probes: b.net: refused: ECONNREFUSED',
      'real probes: a.com: refused: ECONNREFUSED',
    ]);
    expect(calls.mx).toBe(6);
    await health.checkNow();
    expect(calls.banner).toBe(4);
    expect(health.egressBlocked()).toBe(false);
  });

  it('keeps the egress failed when the canaries fail too', async () => {
    const { health, world, advance } = setup();
    await health.start();
    advance(30_000);
    world.banner = 'connect-timeout';
    failAt(health, 'mx.a.com', 'mx.b.net', 'mx.c.org');
    await health.checkNow();
    expect(health.egressBlocked()).toBe(true);
  });

  it('counts the MX hosts of one operator once', async () => {
    const { health, advance } = setup();
    await health.start();
    advance(30_000);
    failAt(health, 'mx1.a.com', 'mx2.a.com', 'alt.mx.a.com', 'mx.b.net');
    expect(health.egressBlocked()).toBe(false);
  });

  it('does not re-check within recheckMinMs of the last check, and clears on a success', async () => {
    const { health, calls, advance } = setup();
    await health.start();
    advance(29_999);
    failAt(health, 'mx.a.com', 'mx.b.net', 'mx.c.org');
    expect(health.egressBlocked()).toBe(true);
    expect(calls.mx).toBe(3);
    health.connection('mx.d.com', '8.8.8.8', true, 'connected');
    expect(health.egressBlocked()).toBe(false);
    expect(health.state().smtp_egress.state).toBe('ok');
  });

  it('re-checks a breaker tripped within recheckMinMs of the last check as soon as that allows', async () => {
    vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout'] });
    const { health, calls, advance } = setup();
    await health.start();
    advance(10_000);
    failAt(health, 'mx.a.com', 'mx.b.net', 'mx.c.org');
    expect(health.egressBlocked()).toBe(true);
    expect(calls.mx).toBe(3);
    // The canaries still answer: the check 30 s after the last one clears the breaker.
    advance(20_000);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(calls.mx).toBe(6);
    expect(health.egressBlocked()).toBe(false);
  });

  it('fails the egress at the first probe the proxy failed, with the proxy hint; the canaries confirm or clear it', async () => {
    const { health, world, calls, advance } = setup();
    await health.start();
    advance(30_000);
    health.egressFailed('mx.a.com', 'socks5://127.0.0.1:1080: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1080');
    expect(health.egressBlocked()).toBe(true);
    expect(health.state().smtp_egress).toMatchObject({
      state: 'failed',
      evidence: ['real probes: socks5://127.0.0.1:1080: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1080'],
      hint: proxyHint(25),
    });
    // The check it asked for finds the proxy failing too: still failed.
    world.banner = 'proxy-failed';
    await health.checkNow();
    expect(calls.banner).toBe(4);
    expect(health.egressBlocked()).toBe(true);
    expect(health.state().smtp_egress.hint).toBe(proxyHint(25));
    // The proxy is back: the next check clears it.
    world.banner = 'banner';
    await health.checkNow();
    expect(health.egressBlocked()).toBe(false);
    // So does a probe that connects.
    health.egressFailed('mx.a.com', 'socks5://127.0.0.1:1080: Socks5 Authentication failed');
    expect(health.egressBlocked()).toBe(true);
    health.connection('mx.d.com', '8.8.8.8', true, 'connected');
    expect(health.egressBlocked()).toBe(false);
  });

  it('ignores proxy failures below depth mailbox', async () => {
    const { health } = setup('domain');
    await health.start();
    health.egressFailed('mx.a.com', 'socks5://127.0.0.1:1080: ECONNREFUSED');
    expect(health.state().smtp_egress.state).toBe('unknown');
  });

  it('degrades the identity on refusals about us from one operator, fails it from two', async () => {
    const { health } = setup();
    await health.start();
    health.refusal('mx.a.com', '550 5.1.1 user unknown');
    expect(health.state().identity.state).toBe('ok');
    health.refusal('mx1.a.com', ABOUT_US);
    health.refusal('mx2.a.com', ABOUT_US);
    expect(health.state().identity.state).toBe('degraded');
    health.refusal('mx.b.net', '550 5.7.1 Your IP address is listed');
    expect(health.state().identity.state).toBe('failed');
    expect(health.state().identity.evidence).toContain('b.net refused us: 550 5.7.1 Your IP address is listed');
  });

  it('counts refusals about us seen before the first check', () => {
    const { health } = setup();
    health.refusal('mx.a.com', ABOUT_US);
    expect(health.state().identity.state).toBe('degraded');
    expect(health.state().identity.evidence).toEqual([`a.com refused us: ${ABOUT_US}`]);
  });

  it('re-checks when real lookups turn NXDOMAIN, at most once per recheckMinMs', async () => {
    const { health, calls, advance } = setup();
    await health.start();
    const nx: MailRoute = { kind: 'nxdomain' };
    for (let i = 0; i < 5; i++) health.observeRoute(nx);
    expect(calls.mx).toBe(3);
    advance(30_000);
    health.observeRoute({ kind: 'unavailable', reason: 'ETIMEOUT' });
    health.observeRoute({ kind: 'unavailable', reason: 'ETIMEOUT' });
    expect(calls.mx).toBe(3);
    health.observeRoute(nx);
    expect(calls.mx).toBe(6);
    await health.checkNow();
    health.observeRoute(nx);
    expect(calls.mx).toBe(6);
  });

  it('forgets the NXDOMAIN share once a check finds the resolver honest', async () => {
    const { health, calls, advance } = setup();
    await health.start();
    advance(30_000);
    health.observeRoute({ kind: 'nxdomain' });
    health.observeRoute({ kind: 'nxdomain' });
    await health.checkNow();
    advance(30_000);
    health.observeRoute({ kind: 'nxdomain' });
    expect(calls.mx).toBe(6);
  });
});

describe('createProberHealth: logging', () => {
  it('warns once per change for the worse, says nothing while the state stays, and tells when it is ok again', async () => {
    const { health, world, logged } = setup();
    world.banner = 'refused';
    await health.start();
    expect(logged.warn).toHaveBeenCalledTimes(1);
    expect(logged.warn.mock.calls[0]![1]).toMatch(/^prober health: smtp_egress is failed: outbound TCP port 25 is blocked/);
    expect(logged.warn.mock.calls[0]![0]).toMatchObject({ concern: 'smtp_egress', state: 'failed', previous: 'unknown' });
    const infos = logged.info.mock.calls.length;
    expect(infos).toBe(2);
    await health.checkNow();
    await health.checkNow();
    expect(logged.warn).toHaveBeenCalledTimes(1);
    expect(logged.info).toHaveBeenCalledTimes(infos);
    world.banner = 'banner';
    await health.checkNow();
    expect(logged.warn).toHaveBeenCalledTimes(1);
    expect(logged.info).toHaveBeenCalledTimes(infos + 1);
    expect(logged.info.mock.calls.at(-1)![1]).toBe('prober health: smtp_egress is ok');
  });
});
