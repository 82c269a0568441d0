/**
 * The egress pool over real sockets: two real SOCKS5 proxies on loopback, each connecting out
 * from its own address (127.0.0.243, 127.0.0.244), and a scripted SMTP server that tells which
 * egress a session came through. A proxy killed while its session waits for a RCPT reply turns
 * that probe alone unknown; the probes after it go through the other egress; routing rules send
 * a provider's probes through its egresses only.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseSocksProxyUrl, type SocksProxy } from '../../core/socks-proxy-url.js';
import { closeScripted, scripted } from '../../../test/helpers/scripted-smtp.js';
import { startSocksProxy, type TestSocksProxy } from '../../../test/helpers/world/socks-proxy.js';
import { createBatchingProber } from './batch-prober.js';
import { createEgressPool, type EgressPool } from './egress-pool.js';
import { egressLabel, type SmtpEgress } from './egress.js';
import type { ProbeObserver, ProbeOutcome } from './prober.js';
import { until } from '../../../test/helpers/until.js';

const A_OUT = '127.0.0.243';
const B_OUT = '127.0.0.244';
let proxyA: TestSocksProxy;
let proxyB: TestSocksProxy;

beforeAll(async () => {
  [proxyA, proxyB] = await Promise.all([startSocksProxy({ outboundAddress: A_OUT }), startSocksProxy({ outboundAddress: B_OUT })]);
});
afterEach(async () => {
  await closeScripted();
  proxyA.reset();
  proxyB.reset();
});
afterAll(async () => {
  await Promise.all([proxyA.close(), proxyB.close()]);
});

const proxyOf = (url: string): SocksProxy => {
  const parsed = parseSocksProxyUrl(url);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.proxy;
};
const egresses = (): SmtpEgress[] => [
  { label: 'a', helo: 'a.probe.example', proxy: proxyOf(proxyA.url) },
  { label: 'b', helo: 'b.probe.example', proxy: proxyOf(proxyB.url) },
];
const providerOf = (host: string) => (host.endsWith('google.com') ? 'google' : undefined);

/**
 * Answers RCPT `known…` 250 and anything else 550 5.1.1, except on sessions from `holdFrom`: their
 * RCPTs are never answered (the probe is in flight until its egress dies). Records each RCPT with
 * the address its session came from.
 */
async function server(holdFrom?: string) {
  const rcpts: { from: string; recipient: string }[] = [];
  const held: string[] = [];
  const smtp = await scripted((line, reply, socket) => {
    if (/^(MAIL FROM|RSET)/i.test(line)) return reply('250 ok');
    const rcpt = /^RCPT TO:<([^>]+)>/i.exec(line);
    if (!rcpt) return reply('502 no');
    const from = socket.remoteAddress ?? '';
    rcpts.push({ from, recipient: rcpt[1]! });
    if (from === holdFrom) return void held.push(rcpt[1]!);
    reply(rcpt[1]!.startsWith('known') ? '250 2.1.5 ok' : '550 5.1.1 no such user');
  });
  return { ...smtp, rcpts, held };
}

function observer() {
  const seen = { egressFailed: [] as string[] };
  const watch: ProbeObserver = {
    connection: () => undefined,
    refusal: () => undefined,
    egressFailed: (_host, detail) => seen.egressFailed.push(detail),
  };
  return { seen, watch };
}

function prober(port: number, pool: EgressPool, watch?: ProbeObserver) {
  return createBatchingProber({
    port,
    helo: 'default.probe.example',
    from: '',
    pool,
    egress: pool.chooser,
    // One RCPT per session, one session per host and egress: each probe gets a session of its own.
    maxSessionsPerHost: 1,
    rcptsPerSession: 1,
    connectTimeoutMs: 2_000,
    ...(watch ? { observer: watch } : {}),
  });
}

const classes = (outcome: ProbeOutcome) => (outcome.kind === 'replies' ? [...outcome.replies.values()].map((r) => r.class) : outcome.kind);

describe('the egress pool', () => {
  it('a proxy killed mid-run turns only its own in-flight probe unknown; the rest go on through the other egress', async () => {
    const smtp = await server(A_OUT);
    const { seen, watch } = observer();
    const pool = createEgressPool(egresses(), { providerOf });
    const probing = prober(smtp.port, pool, watch);
    const target = { host: 'mx.pool.example', addresses: ['127.0.0.1'] };
    const deadline = Date.now() + 20_000;
    const first = ['known-1@pool.example', 'unknown-2@pool.example'].map((r) => probing.probe(target, [r], deadline));
    // One session through each egress: a's RCPT is held (in flight), b's answered.
    await until(() => smtp.held.length === 1);
    const inFlight = smtp.held[0]!;
    // Proxy a dies with its session; more probes arrive meanwhile.
    const killed = proxyA.close();
    const later = ['known-3@pool.example', 'unknown-4@pool.example', 'known-5@pool.example'].map((r) =>
      probing.probe(target, [r], deadline),
    );
    await killed;
    const outcomes = await Promise.all([...first, ...later]);
    const recipients = [
      'known-1@pool.example',
      'unknown-2@pool.example',
      'known-3@pool.example',
      'unknown-4@pool.example',
      'known-5@pool.example',
    ];
    for (const [index, recipient] of recipients.entries()) {
      const outcome = outcomes[index]!;
      if (recipient === inFlight) {
        // Unknown: no replies, never a 550 it did not get.
        expect(outcome.kind).not.toBe('replies');
        expect(outcome.kind === 'replies' ? [] : [...(outcome.partial ?? new Map()).values()]).toEqual([]);
      } else {
        expect(classes(outcome)).toEqual([recipient.startsWith('known') ? 'accepted' : 'no-mailbox']);
      }
    }
    // Every probe after the kill went through b.
    expect(smtp.rcpts.filter((r) => r.recipient !== inFlight).every((r) => r.from === B_OUT)).toBe(true);
    expect(pool.status().map((s) => [s.label, s.healthy])).toEqual([
      ['a', false],
      ['b', true],
    ]);
    // b still works: the way out is not reported blocked to prober health.
    expect(seen.egressFailed).toEqual([]);
    expect(pool.healthyCount()).toBe(1);
    // Restore a for the other tests (same port: the pool's proxy URL stays right).
    proxyA = await startSocksProxy({ outboundAddress: A_OUT });
  });

  it('with every egress down, a probe is egress-failed (unknown), and prober health is told', async () => {
    const smtp = await server();
    const { seen, watch } = observer();
    const dead = await startSocksProxy({ outboundAddress: A_OUT });
    const deadToo = await startSocksProxy({ outboundAddress: B_OUT });
    await Promise.all([dead.close(), deadToo.close()]);
    const pool = createEgressPool(
      [
        { label: 'a', helo: 'a.probe.example', proxy: proxyOf(dead.url) },
        { label: 'b', helo: 'b.probe.example', proxy: proxyOf(deadToo.url) },
      ],
      { providerOf },
    );
    const outcome = await prober(smtp.port, pool, watch).probe(
      { host: 'mx.pool.example', addresses: ['127.0.0.1'] },
      ['known-1@pool.example'],
      Date.now() + 10_000,
    );
    expect(outcome.kind).toBe('egress-failed');
    expect(pool.healthyCount()).toBe(0);
    expect(seen.egressFailed).toHaveLength(1);
    expect(smtp.rcpts).toEqual([]);
  });

  it('routing: a provider routed through some egresses takes only those; others take any', async () => {
    const smtp = await server();
    const pool = createEgressPool(egresses(), { providerOf, routes: { google: ['b'] } });
    const probing = prober(smtp.port, pool);
    const deadline = Date.now() + 20_000;
    const google = { host: 'gmail-smtp-in.l.google.com', addresses: ['127.0.0.1'] };
    const other = { host: 'mx.pool.example', addresses: ['127.0.0.1'] };
    const outcomes = await Promise.all([
      ...[1, 2, 3, 4].map((i) => probing.probe(google, [`known-g${i}@gmail.com`], deadline)),
      ...[1, 2, 3, 4].map((i) => probing.probe(other, [`known-o${i}@pool.example`], deadline)),
    ]);
    expect(outcomes.map(classes)).toEqual(Array(8).fill(['accepted']));
    const fromOf = (prefix: string) => new Set(smtp.rcpts.filter((r) => r.recipient.startsWith(prefix)).map((r) => r.from));
    expect(fromOf('known-g')).toEqual(new Set([B_OUT]));
    expect(fromOf('known-o')).toEqual(new Set([A_OUT, B_OUT]));
    // The route's own egresses down: that provider's probes are unknown though another egress is healthy.
    pool.failed(pool.egresses[1]!, 'proxy down');
    expect(pool.usable(google.host)).toEqual([]);
    expect((await probing.probe(google, ['known-g5@gmail.com'], Date.now() + 10_000)).kind).toBe('egress-failed');
    expect(pool.usable(other.host).map(egressLabel)).toEqual(['a']);
  });

  it('a failed egress is tried again after its retry time (a fake clock), and a working connection puts it back', () => {
    let now = 1_000;
    const changes: string[] = [];
    const pool = createEgressPool(egresses(), {
      providerOf,
      now: () => now,
      retryMs: 60_000,
      onChange: (s) => changes.push(`${s.label} ${s.healthy}`),
    });
    const [a] = pool.egresses;
    pool.failed(a!, 'socks5://probe@10.0.0.1:1080 refused the connection');
    // No user name or address of a proxy in what the pool reports.
    expect(pool.status()[0]!.detail).toBe('the proxy refused the connection');
    expect(JSON.stringify(pool.status())).not.toContain('10.0.0.1');
    pool.failed(a!, 'again');
    expect(pool.usable('mx.pool.example').map(egressLabel)).toEqual(['b']);
    expect(pool.status()[0]).toMatchObject({ label: 'a', way: 'socks5', healthy: false, since: 1_000 });
    now += 59_999;
    expect(pool.usable('mx.pool.example').map(egressLabel)).toEqual(['b']);
    now += 1;
    expect(pool.usable('mx.pool.example').map(egressLabel)).toEqual(['a', 'b']);
    expect(pool.healthy(a!)).toBe(false);
    pool.worked(a!);
    expect(pool.healthyCount()).toBe(2);
    expect(changes).toEqual(['a false', 'a true']);
  });
});
