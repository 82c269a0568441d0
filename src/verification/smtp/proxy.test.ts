/**
 * Probes and the egress check through a real SOCKS5 proxy on loopback: asserted on both sides,
 * the proxy's (the CONNECT it was asked for: an IP address, with our credentials) and the SMTP
 * server's (the session came from the proxy's outbound connection, not from us).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseSocksProxyUrl, type SocksProxy } from '../../core/socks-proxy-url.js';
import { closedPort, startSilentListeners } from '../../../test/helpers/world/egress.js';
import { startTestWorld, type TestWorld } from '../../../test/helpers/world/index.js';
import { startSocksProxy, type TestSocksProxy } from '../../../test/helpers/world/socks-proxy.js';
import { checkBanner } from './banner-check.js';
import { createBatchingProber } from './batch-prober.js';
import { egressByProvider, singleEgress } from './egress.js';
import { createSmtpProber, type ProbeObserver, type ProbeOutcome } from './prober.js';
import { SmtpTransport, TransportError } from './smtp-transport.js';

let world: TestWorld;
let open: TestSocksProxy;
let authed: TestSocksProxy;
const extra: TestSocksProxy[] = [];

beforeAll(async () => {
  world = await startTestWorld();
  open = await startSocksProxy();
  authed = await startSocksProxy({ outboundAddress: '127.0.0.241', auth: { username: 'probe', password: 's3cret:p@ss' } });
});
afterEach(async () => {
  world.reset();
  open.reset();
  authed.reset();
  await Promise.all(extra.splice(0).map((p) => p.close()));
});
afterAll(async () => {
  await Promise.all([open.close(), authed.close(), world.close()]);
});

const soon = (ms = 5000) => Date.now() + ms;
const target = (name: keyof TestWorld['smtp']) => ({ host: `mx-${String(name)}.world`, addresses: [world.smtpAddress(name)] });
const proxyOf = (url: string): SocksProxy => {
  const parsed = parseSocksProxyUrl(url);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.proxy;
};

function recordingObserver() {
  const seen = { connections: [] as string[], refusals: [] as string[], egressFailures: [] as string[] };
  const observer: ProbeObserver = {
    connection: (host, address, connected, detail) => seen.connections.push(`${host} ${address} ${connected} ${detail}`),
    refusal: (host, text) => seen.refusals.push(`${host} ${text}`),
    egressFailed: (host, detail) => seen.egressFailures.push(`${host} ${detail}`),
  };
  return { seen, observer };
}

function prober(proxy: SocksProxy, observer?: ProbeObserver) {
  return createSmtpProber({
    port: world.smtpPort,
    helo: 'probe.mailsure.com',
    from: 'verify@mailsure.com',
    proxy,
    connectTimeoutMs: 2000,
    ...(observer ? { observer } : {}),
  });
}

function replies(outcome: ProbeOutcome) {
  if (outcome.kind !== 'replies') throw new Error(`expected replies, got ${outcome.kind}: ${outcome.detail}`);
  return outcome;
}

describe('probes through a SOCKS5 proxy', () => {
  it('reach the MX through the proxy: the proxy was asked for the IP, the SMTP server saw the proxy connect', async () => {
    const { known, unknown } = world.addresses;
    const outcome = replies(await prober(proxyOf(open.url)).probe(target('mailboxes'), [known, unknown], soon()));
    expect(outcome.replies.get(known)).toMatchObject({ class: 'accepted', code: 250 });
    expect(outcome.replies.get(unknown)).toMatchObject({ class: 'no-mailbox', code: 550 });

    expect(open.requests).toHaveLength(1);
    const [request] = open.requests;
    expect(request).toMatchObject({
      source: '127.0.0.1',
      destination: world.smtpAddress('mailboxes'),
      port: world.smtpPort,
      reply: 'REQUEST_GRANTED',
    });
    expect(request!.outbound?.localAddress).toBe('127.0.0.240');

    const sessions = world.smtp.mailboxes.sessions;
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({
      remoteAddress: '127.0.0.240',
      remotePort: request!.outbound!.localPort,
      helo: 'probe.mailsure.com',
    });
    expect(sessions[0]!.rcpts.map((r) => r.address)).toEqual([known, unknown]);
  });

  it('upgrade with STARTTLS inside the proxied connection', async () => {
    const address = `alice@${world.domains.starttls}`;
    const outcome = replies(await prober(proxyOf(open.url)).probe(target('starttls'), [address], soon()));
    expect(outcome.tls).toBe(true);
    expect(open.requests.map((r) => [r.destination, r.reply])).toEqual([[world.smtpAddress('starttls'), 'REQUEST_GRANTED']]);
    const session = world.smtp.starttls.sessions[0]!;
    expect(session).toMatchObject({ tls: true, remoteAddress: '127.0.0.240', remotePort: open.requests[0]!.outbound!.localPort });
    expect(session.rcpts.map((r) => r.address)).toEqual([address]);
  });

  it('authenticate with the user name and password of the URL (RFC 1929)', async () => {
    const outcome = replies(await prober(proxyOf(authed.url)).probe(target('mailboxes'), [world.addresses.known], soon()));
    expect(outcome.replies.get(world.addresses.known)?.class).toBe('accepted');
    expect(authed.requests).toMatchObject([{ username: 'probe', destination: world.smtpAddress('mailboxes'), reply: 'REQUEST_GRANTED' }]);
    expect(authed.authFailures).toBe(0);
    expect(world.smtp.mailboxes.sessions[0]).toMatchObject({
      remoteAddress: '127.0.0.241',
      remotePort: authed.requests[0]!.outbound!.localPort,
    });
  });

  it('wrong credentials: the egress failed, nothing reached the MX, the observer is told', async () => {
    const { seen, observer } = recordingObserver();
    const wrong = { ...proxyOf(authed.url), password: 'wrong' };
    const outcome = await prober(wrong, observer).probe(target('mailboxes'), [world.addresses.known], soon());
    expect(outcome).toEqual({ kind: 'egress-failed', detail: `socks5://probe@127.0.0.1:${authed.port}: Socks5 Authentication failed` });
    expect(authed.authFailures).toBe(1);
    expect(authed.requests).toEqual([]);
    expect(world.smtp.mailboxes.connections).toBe(0);
    expect(seen.egressFailures).toEqual([`mx-mailboxes.world socks5://probe@127.0.0.1:${authed.port}: Socks5 Authentication failed`]);
    expect(seen.connections).toEqual([]);
  });

  it('a proxy that is down: the egress failed (not the domain refusing), and no other address is tried', async () => {
    const port = await closedPort(['127.0.0.1']);
    const { seen, observer } = recordingObserver();
    const twoAddresses = { host: 'mx-mailboxes.world', addresses: [world.smtpAddress('mailboxes'), world.smtpAddress('acceptAll')] };
    const outcome = await prober({ host: '127.0.0.1', port }, observer).probe(twoAddresses, [world.addresses.known], soon());
    expect(outcome.kind).toBe('egress-failed');
    expect(outcome.kind !== 'replies' && outcome.detail).toMatch(new RegExp(`^socks5://127\\.0\\.0\\.1:${port}: ECONNREFUSED: `));
    expect(seen.egressFailures).toHaveLength(1);
    expect(world.smtp.mailboxes.connections + world.smtp.acceptAll.connections).toBe(0);
  });

  it('a proxy whose rules refuse port 25: the egress failed', async () => {
    const strict = await startSocksProxy({ deniedPorts: [world.smtpPort] });
    extra.push(strict);
    const outcome = await prober(proxyOf(strict.url)).probe(target('mailboxes'), [world.addresses.known], soon());
    expect(outcome).toEqual({
      kind: 'egress-failed',
      detail: `socks5://127.0.0.1:${strict.port}: Socks5 proxy rejected connection - NotAllowed`,
    });
    expect(strict.requests).toMatchObject([{ destination: world.smtpAddress('mailboxes'), reply: 'CONNECTION_NOT_ALLOWED' }]);
    expect(world.smtp.mailboxes.connections).toBe(0);
  });

  it('a proxy that accepts and never speaks: the egress failed once the connect time-out passed', async () => {
    const silent = await startSilentListeners(['127.0.0.1']);
    try {
      const p = createSmtpProber({
        port: world.smtpPort,
        helo: 'probe.mailsure.com',
        from: 'verify@mailsure.com',
        proxy: { host: '127.0.0.1', port: silent.port },
        connectTimeoutMs: 300,
      });
      const outcome = await p.probe(target('mailboxes'), [world.addresses.known], soon(30_000));
      expect(outcome).toEqual({ kind: 'egress-failed', detail: `socks5://127.0.0.1:${silent.port} did not answer in 300 ms` });
    } finally {
      await silent.close();
    }
  });

  it('an MX address that refuses, as the proxy reports it, is the host refusing (as it would be directly)', async () => {
    const { seen, observer } = recordingObserver();
    const outcome = await prober(proxyOf(open.url), observer).probe(target('refuse'), [`alice@${world.domains.refused}`], soon());
    expect(outcome.kind).toBe('refused');
    expect(open.requests).toMatchObject([{ destination: world.smtpAddress('refuse'), reply: 'CONNECTION_REFUSED' }]);
    expect(seen.egressFailures).toEqual([]);
    expect(seen.connections).toEqual([
      `mx-refuse.world ${world.smtpAddress('refuse')} false refused: ${world.smtpAddress('refuse')}:${world.smtpPort} through socks5://127.0.0.1:${open.port}: ConnectionRefused`,
    ]);
  });

  it('an MX address the proxy cannot reach in time is a connect time-out there, and the next address is tried', async () => {
    const held = await startSocksProxy({ heldAddresses: [world.smtpAddress('mailboxes')] });
    extra.push(held);
    const { seen, observer } = recordingObserver();
    const p = createSmtpProber({
      port: world.smtpPort,
      helo: 'probe.mailsure.com',
      from: 'verify@mailsure.com',
      proxy: proxyOf(held.url),
      connectTimeoutMs: 300,
      observer,
    });
    const twoAddresses = { host: 'mx-acceptAll.world', addresses: [world.smtpAddress('mailboxes'), world.smtpAddress('acceptAll')] };
    const outcome = replies(await p.probe(twoAddresses, [`carol@${world.domains.acceptAll}`], soon(30_000)));
    expect(outcome.address).toBe(world.smtpAddress('acceptAll'));
    expect(seen.egressFailures).toEqual([]);
    expect(seen.connections[0]).toBe(
      `mx-acceptAll.world ${world.smtpAddress('mailboxes')} false connect-timeout: no connection to ${world.smtpAddress('mailboxes')}:${world.smtpPort} through socks5://127.0.0.1:${held.port} in 300 ms`,
    );
    expect(held.requests.map((r) => [r.destination, r.reply])).toEqual([
      [world.smtpAddress('mailboxes'), undefined],
      [world.smtpAddress('acceptAll'), 'REQUEST_GRANTED'],
    ]);
  });

  it('never hands the proxy a name to resolve', async () => {
    const attempt = SmtpTransport.connect({
      address: 'mx-mailboxes.world',
      port: world.smtpPort,
      deadline: soon(),
      connectTimeoutMs: 1000,
      proxy: proxyOf(open.url),
    });
    await expect(attempt).rejects.toEqual(
      new TransportError('unreachable', 'mx-mailboxes.world is not an IP address: the proxy is given checked addresses only'),
    );
    expect(open.requests).toEqual([]);
  });

  it('per provider: the chooser sends each MX host through its own proxy under its own name', async () => {
    const chooser = egressByProvider(
      { helo: 'probe.mailsure.com', proxy: proxyOf(open.url) },
      (host) => (host === 'mx-acceptAll.world' ? 'accept-all-provider' : undefined),
      new Map([['accept-all-provider', { helo: 'other.mailsure.com', proxy: proxyOf(authed.url) }]]),
    );
    const p = createSmtpProber({ port: world.smtpPort, helo: 'unused.mailsure.com', from: 'verify@mailsure.com', egress: chooser });
    replies(await p.probe(target('mailboxes'), [world.addresses.known], soon()));
    replies(await p.probe(target('acceptAll'), [`bob@${world.domains.acceptAll}`], soon()));
    expect(world.smtp.mailboxes.sessions[0]).toMatchObject({ remoteAddress: '127.0.0.240', helo: 'probe.mailsure.com' });
    expect(world.smtp.acceptAll.sessions[0]).toMatchObject({ remoteAddress: '127.0.0.241', helo: 'other.mailsure.com' });
    expect(open.requests.map((r) => r.destination)).toEqual([world.smtpAddress('mailboxes')]);
    expect(authed.requests.map((r) => r.destination)).toEqual([world.smtpAddress('acceptAll')]);
    expect(singleEgress({ helo: 'x' })('any.host')).toEqual({ helo: 'x' });
  });
});

describe('batched probes (lists) through a SOCKS5 proxy', () => {
  const batching = (proxy: SocksProxy, observer?: ProbeObserver) =>
    createBatchingProber({
      port: world.smtpPort,
      helo: 'probe.mailsure.com',
      from: 'verify@mailsure.com',
      proxy,
      connectTimeoutMs: 2000,
      ...(observer ? { observer } : {}),
    });

  it('share one session through the proxy: one CONNECT for the IP, the SMTP server saw the proxy connect', async () => {
    const { known, knownToo, unknown } = world.addresses;
    const p = batching(proxyOf(open.url));
    const outcomes = await Promise.all([known, knownToo, unknown].map((address) => p.probe(target('mailboxes'), [address], soon())));
    expect(outcomes.map((o) => replies(o).replies.values().next().value?.class)).toEqual(['accepted', 'accepted', 'no-mailbox']);

    expect(open.requests).toHaveLength(1);
    expect(open.requests[0]).toMatchObject({ destination: world.smtpAddress('mailboxes'), port: world.smtpPort, reply: 'REQUEST_GRANTED' });
    const sessions = world.smtp.mailboxes.sessions;
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({
      remoteAddress: '127.0.0.240',
      remotePort: open.requests[0]!.outbound!.localPort,
      helo: 'probe.mailsure.com',
    });
    expect(sessions[0]!.rcpts.map((r) => r.address).sort()).toEqual([known, knownToo, unknown].sort());
  });

  it('go out the way the chooser says for their MX host', async () => {
    const chooser = egressByProvider(
      { helo: 'probe.mailsure.com', proxy: proxyOf(open.url) },
      (host) => (host === 'mx-acceptAll.world' ? 'accept-all-provider' : undefined),
      new Map([['accept-all-provider', { helo: 'other.mailsure.com', proxy: proxyOf(authed.url) }]]),
    );
    const p = createBatchingProber({ port: world.smtpPort, helo: 'unused.mailsure.com', from: 'verify@mailsure.com', egress: chooser });
    await Promise.all([
      p.probe(target('mailboxes'), [world.addresses.known], soon()).then(replies),
      p.probe(target('acceptAll'), [`bob@${world.domains.acceptAll}`], soon()).then(replies),
    ]);
    expect(world.smtp.mailboxes.sessions[0]).toMatchObject({ remoteAddress: '127.0.0.240', helo: 'probe.mailsure.com' });
    expect(world.smtp.acceptAll.sessions[0]).toMatchObject({ remoteAddress: '127.0.0.241', helo: 'other.mailsure.com' });
  });

  it('a proxy that is down: every probe of the batch is egress-failed (never the host refusing), no address tried, the observer told', async () => {
    const port = await closedPort(['127.0.0.1']);
    const { seen, observer } = recordingObserver();
    const twoAddresses = { host: 'mx-mailboxes.world', addresses: [world.smtpAddress('mailboxes'), world.smtpAddress('acceptAll')] };
    const p = batching({ host: '127.0.0.1', port }, observer);
    const { known, knownToo, unknown } = world.addresses;
    const outcomes = await Promise.all([known, knownToo, unknown].map((address) => p.probe(twoAddresses, [address], soon())));
    for (const outcome of outcomes) {
      expect(outcome.kind).toBe('egress-failed');
      expect(outcome.kind !== 'replies' && outcome.detail).toMatch(new RegExp(`^socks5://127\\.0\\.0\\.1:${port}: ECONNREFUSED: `));
    }
    expect(seen.egressFailures.length).toBeGreaterThanOrEqual(1);
    expect(seen.egressFailures.every((failure) => failure.startsWith(`mx-mailboxes.world socks5://127.0.0.1:${port}: `))).toBe(true);
    expect(seen.connections).toEqual([]);
    expect(world.smtp.mailboxes.connections + world.smtp.acceptAll.connections).toBe(0);
  });
});

describe('the egress check through a SOCKS5 proxy', () => {
  const options = () => ({ port: world.smtpPort, connectTimeoutMs: 2000, timeoutMs: 5000 });

  it('reads the canary banner through the proxy, and says so', async () => {
    const check = await checkBanner('mx-canary.world', world.smtpAddress('canary'), { ...options(), proxy: proxyOf(open.url) });
    expect(check).toMatchObject({ outcome: 'banner', via: `socks5://127.0.0.1:${open.port}` });
    expect(open.requests).toMatchObject([{ destination: world.smtpAddress('canary'), reply: 'REQUEST_GRANTED' }]);
    expect(world.smtp.canary.connections).toBe(1);
  });

  it('a proxy that is down fails the check as the proxy, not as the canary', async () => {
    const port = await closedPort(['127.0.0.1']);
    const check = await checkBanner('mx-canary.world', world.smtpAddress('canary'), { ...options(), proxy: { host: '127.0.0.1', port } });
    expect(check).toMatchObject({ outcome: 'proxy-failed', via: `socks5://127.0.0.1:${port}` });
    expect(check.text).toMatch(new RegExp(`^socks5://127\\.0\\.0\\.1:${port}: ECONNREFUSED`));
    expect(world.smtp.canary.connections).toBe(0);
  });
});
