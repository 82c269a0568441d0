/**
 * MAILSURE_SMTP_PROXY end to end (issue 21): verdicts over HTTP come from probes that went
 * through a real SOCKS5 proxy on loopback (the proxy was asked for the MX's IP address; the SMTP
 * server saw the proxy's outbound connection), the prober-health egress check goes the same way,
 * and a proxy that is down or refuses us never makes an address invalid: the verdict stops at
 * what DNS proved (20, legacy `unknown`), `/readyz` says the egress failed and why.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HealthTuning } from '../../src/wiring/prober-health.js';
import { proxyHint } from '../../src/verification/health/decide-egress.js';
import type { TestApp } from '../helpers/app.js';
import { runList, validationCodes } from '../helpers/lists.js';
import { ev, readyz, startMailboxApp } from '../helpers/mailbox-app.js';
import { closedPort } from '../helpers/world/egress.js';
import { startTestWorld, type TestWorld } from '../helpers/world/index.js';
import { startSocksProxy, type TestSocksProxy } from '../helpers/world/socks-proxy.js';

let world: TestWorld;
let proxy: TestSocksProxy;
const apps: TestApp[] = [];
const proxies: TestSocksProxy[] = [];

beforeAll(async () => {
  world = await startTestWorld();
  proxy = await startSocksProxy();
});
afterEach(async () => {
  world.reset();
  proxy.reset();
  await Promise.all([...apps.splice(0).map((a) => a.close()), ...proxies.splice(0).map((p) => p.close())]);
});
afterAll(async () => {
  await Promise.all([proxy.close(), world.close()]);
});

const startApp = (env: Record<string, string>, health: HealthTuning = {}) => startMailboxApp(world, apps, env, health);

/** The prober's SMTP egress concern in /readyz, with whether mailbox verification is available. */
async function egress(t: TestApp) {
  const { prober } = await readyz(t);
  return { ...prober.smtp_egress, mailbox: prober.mailbox_verification };
}

const allSessions = () => Object.values(world.smtp).flatMap((log) => log.sessions);
const connections = () => Object.values(world.smtp).reduce((n, log) => n + log.connections, 0);

describe('MAILSURE_SMTP_PROXY: probes go through the proxy', () => {
  it('gives the same verdicts as a direct probe, and every SMTP session came from the proxy', async () => {
    const { t, key } = await startApp({ MAILSURE_SMTP_PROXY: proxy.url });
    const health = await egress(t);
    expect(health.state).toBe('ok');
    expect(health.evidence).toEqual([
      `mx.canary-mail.com [127.0.0.23]:${world.smtpPort} via socks5://127.0.0.1:${proxy.port}: banner received`,
    ]);

    expect(await ev(t, key, world.addresses.known)).toMatchObject({ status: 'safetosend', status_code: 50 });
    expect(await ev(t, key, world.addresses.unknown)).toMatchObject({ status: 'invalid', status_code: 400 });
    expect(await ev(t, key, `alice@${world.domains.starttls}`)).toMatchObject({ status_code: 50 });
    expect(world.smtp.starttls.sessions.every((s) => s.tls)).toBe(true);

    // The proxy's side: CONNECTs to IP addresses, every one granted and opened from its own address.
    // (The egress check's, and the probes': two calls in a row may share one session.)
    expect(proxy.requests.length).toBeGreaterThanOrEqual(3);
    for (const request of proxy.requests) {
      expect(request.destination).toMatch(/^127\.0\.0\.\d+$/);
      expect(request).toMatchObject({ port: world.smtpPort, reply: 'REQUEST_GRANTED', outbound: { localAddress: proxy.outboundAddress } });
    }
    // The SMTP servers' side: each session is one of the proxy's outbound connections, and nothing came directly.
    const sessions = allSessions();
    expect(sessions.length).toBe(proxy.requests.length);
    const opened = new Set(proxy.requests.map((r) => `${r.outbound!.localAddress}:${r.outbound!.localPort}`));
    for (const session of sessions) expect(opened.has(`${session.remoteAddress}:${session.remotePort}`)).toBe(true);
    expect(connections()).toBe(proxy.requests.length);
  });

  it('authenticates with the credentials of the URL', async () => {
    const authed = await startSocksProxy({ outboundAddress: '127.0.0.241', auth: { username: 'probe', password: 'p@ss:word' } });
    proxies.push(authed);
    const { t, key } = await startApp({ MAILSURE_SMTP_PROXY: authed.url });
    expect((await egress(t)).state).toBe('ok');
    expect(await ev(t, key, world.addresses.known)).toMatchObject({ status_code: 50 });
    expect(authed.authFailures).toBe(0);
    expect(authed.requests.every((r) => r.username === 'probe')).toBe(true);
    expect(world.smtp.mailboxes.sessions.map((s) => s.remoteAddress)).toEqual(['127.0.0.241']);
  });

  it('keeps the target policy: an MX on a private address is not probed through the proxy either', async () => {
    const direct = await startApp({ MAILSURE_ALLOW_PRIVATE_TARGETS: '0' });
    const expected = await ev(direct.t, direct.key, world.addresses.unknown);
    expect(expected?.status_code).not.toBe(400);
    world.reset();
    const { t, key } = await startApp({ MAILSURE_ALLOW_PRIVATE_TARGETS: '0', MAILSURE_SMTP_PROXY: proxy.url });
    expect(await ev(t, key, world.addresses.unknown)).toEqual(expected);
    expect(proxy.requests).toEqual([]);
    expect(connections()).toBe(0);
  });
});

/** Uploads a list (under an Email header), waits for it, and gives each row's Validation Code and the list's report. */
async function listCodes(t: TestApp, emails: string[]) {
  const key = (await t.key('lists', { services: 'verification,lists', variant: 'email_validation' })).key;
  const { report, rows } = await runList(t, key, emails, { header: true });
  return { rows: validationCodes(rows), report };
}

describe('MAILSURE_SMTP_PROXY: a list at depth mailbox (batched probes)', () => {
  const mailboxRows = () => [
    world.addresses.known,
    world.addresses.knownToo,
    world.addresses.unknown,
    ...Array.from({ length: 20 }, (_, i) => `user${i}@${world.domains.mailboxOk}`),
  ];

  it('its shared sessions go through the proxy: the SMTP servers saw only the proxy connect, fewer sessions than rows', async () => {
    const { t } = await startApp({ MAILSURE_SMTP_PROXY: proxy.url });
    expect((await egress(t)).state).toBe('ok');
    const emails = mailboxRows();
    const { rows } = await listCodes(t, emails);
    expect(rows.get(world.addresses.known)).toBe(50);
    expect(rows.get(world.addresses.knownToo)).toBe(50);
    expect(rows.get(world.addresses.unknown)).toBe(400);
    expect(rows.size).toBe(emails.length);

    for (const request of proxy.requests) {
      expect(request.destination).toMatch(/^127\.0\.0\.\d+$/);
      expect(request).toMatchObject({ port: world.smtpPort, reply: 'REQUEST_GRANTED', outbound: { localAddress: proxy.outboundAddress } });
    }
    const sessions = allSessions();
    const opened = new Set(proxy.requests.map((r) => `${r.outbound!.localAddress}:${r.outbound!.localPort}`));
    for (const session of sessions) expect(opened.has(`${session.remoteAddress}:${session.remotePort}`)).toBe(true);
    expect(connections()).toBe(proxy.requests.length);
    // Batched: the probes shared sessions (each through the proxy), far fewer than one per row.
    const probed = sessions.filter((s) => s.rcpts.length > 0);
    expect(probed.length).toBeGreaterThan(0);
    expect(probed.length).toBeLessThan(emails.length / 2);
    expect(probed.flatMap((s) => s.rcpts.map((r) => r.address))).toEqual(expect.arrayContaining(emails));
  });

  it('the proxy going down after the check: the rows are 20 and SMTP Egress Blocked, never invalid, and the egress turns failed', async () => {
    const flaky = await startSocksProxy();
    proxies.push(flaky);
    const { t } = await startApp({ MAILSURE_SMTP_PROXY: flaky.url }, { recheckMinMs: 0 });
    expect((await egress(t)).state).toBe('ok');
    await flaky.close();
    const before = connections(); // the start-up egress check's canary, through the proxy while it was up

    const emails = [...mailboxRows(), `alice@${world.domains.refused}`];
    const { rows, report } = await listCodes(t, emails);
    for (const email of emails) expect([email, rows.get(email)]).toEqual([email, 20]);
    expect(report.status_codes).toEqual({ '20': emails.length });
    expect(report.verification_limited).toMatchObject({ 'Limited Records': emails.length, 'SMTP Egress Blocked': emails.length });
    // The batched probes told prober health (the proxy hint), and nothing reached an MX.
    const health = await egress(t);
    expect(health.state).toBe('failed');
    expect(health.hint).toBe(proxyHint(world.smtpPort));
    expect(connections()).toBe(before);
  });
});

describe('MAILSURE_SMTP_PROXY: a list of proxies, one of them down', () => {
  it('verdicts go through the live one; the dead one is out of rotation; /readyz counts 1 of 2 healthy and names neither', async () => {
    const dead = await startSocksProxy({ outboundAddress: '127.0.0.242', auth: { username: 'probe', password: 'hunter2' } });
    await dead.close();
    const live = await startSocksProxy({ outboundAddress: '127.0.0.243' });
    proxies.push(live);
    const { t, key } = await startApp({ MAILSURE_SMTP_PROXY: `${dead.url},${live.url}` });
    // The check found the live proxy after the dead one: the egress concern is ok.
    expect((await egress(t)).state).toBe('ok');
    for (let i = 0; i < 3; i++) {
      expect(await ev(t, key, world.addresses.known)).toMatchObject({ status: 'safetosend', status_code: 50 });
      expect(await ev(t, key, world.addresses.unknown)).toMatchObject({ status: 'invalid', status_code: 400 });
    }
    expect(allSessions().every((s) => s.remoteAddress === '127.0.0.243')).toBe(true);
    const ready = await readyz(t);
    expect(ready.prober.smtp_egresses).toEqual({ healthy: 1, total: 2 });
    const body = JSON.stringify(ready);
    for (const secret of ['hunter2', `:${dead.port}`, `:${live.port}`]) expect(body).not.toContain(secret);
  });
});

describe('a proxy that is down or refuses us', () => {
  it('at start: the egress fails with the proxy hint, and no verdict is invalid (20, legacy unknown)', async () => {
    const port = await closedPort(['127.0.0.1']);
    const { t, key, legacy } = await startApp({ MAILSURE_SMTP_PROXY: `socks5://127.0.0.1:${port}` });
    const health = await egress(t);
    expect(health.state).toBe('failed');
    expect(health.mailbox).toBe('unavailable');
    expect(health.hint).toBe(proxyHint(world.smtpPort));
    expect(health.evidence).toHaveLength(1);
    expect(health.evidence[0]).toMatch(
      new RegExp(
        `^mx\\.canary-mail\\.com \\[127\\.0\\.0\\.23\\]:${world.smtpPort} via socks5://127\\.0\\.0\\.1:${port}: the proxy failed: socks5://127\\.0\\.0\\.1:${port}: ECONNREFUSED`,
      ),
    );
    for (const email of [world.addresses.known, world.addresses.unknown, `alice@${world.domains.refused}`]) {
      expect(await ev(t, key, email)).toMatchObject({ status: 'valid', status_code: 20 });
      expect(await ev(t, legacy, email)).toMatchObject({ status: 'unknown', status_code: 20 });
    }
    expect(connections()).toBe(0);
  });

  it('in a list: the rows are 20 and counted as SMTP Egress Blocked, none invalid but the one DNS proved', async () => {
    const port = await closedPort(['127.0.0.1']);
    const { t, key } = await startApp({ MAILSURE_SMTP_PROXY: `socks5://127.0.0.1:${port}` });
    const { report } = await runList(t, key, [world.addresses.known, world.addresses.unknown, `carol@${world.domains.nxdomain}`]);
    expect(report.status_codes).toEqual({ '20': 2, '310': 1 });
    expect(report.verification_limited).toMatchObject({ 'Limited Records': 2, 'SMTP Egress Blocked': 2 });
    expect(connections()).toBe(0);
  });

  it('with the wrong password: the same, and the password is in no evidence', async () => {
    const authed = await startSocksProxy({ auth: { username: 'probe', password: 'right' } });
    proxies.push(authed);
    const { t, key } = await startApp({ MAILSURE_SMTP_PROXY: `socks5://probe:wrong-password@127.0.0.1:${authed.port}` });
    const health = await egress(t);
    expect(health.state).toBe('failed');
    expect(health.evidence).toEqual([
      `mx.canary-mail.com [127.0.0.23]:${world.smtpPort} via socks5://probe@127.0.0.1:${authed.port}: the proxy failed: socks5://probe@127.0.0.1:${authed.port}: Socks5 Authentication failed`,
    ]);
    expect(JSON.stringify(health)).not.toContain('wrong-password');
    expect(await ev(t, key, world.addresses.unknown)).toMatchObject({ status_code: 20 });
    expect(authed.authFailures).toBeGreaterThanOrEqual(1);
    expect(connections()).toBe(0);
  });

  it('going down after the check: the next probe is 20, not 400 or 420, and the egress turns failed', async () => {
    const flaky = await startSocksProxy();
    proxies.push(flaky);
    const { t, key, legacy } = await startApp({ MAILSURE_SMTP_PROXY: flaky.url }, { recheckMinMs: 0 });
    expect((await egress(t)).state).toBe('ok');
    expect(await ev(t, key, world.addresses.knownToo)).toMatchObject({ status_code: 50 });
    await flaky.close();

    expect(await ev(t, legacy, world.addresses.unknown)).toMatchObject({ status: 'unknown', status_code: 20 });
    expect(await ev(t, key, `bob@${world.domains.refused}`)).toMatchObject({ status: 'valid', status_code: 20 });
    // The probe told prober health at once; the check it asked for (through the same proxy) agrees.
    await t.health.checkNow();
    const health = await egress(t);
    expect(health.state).toBe('failed');
    expect(health.hint).toBe(proxyHint(world.smtpPort));
    expect(world.smtp.mailboxes.sessions.map((s) => s.remoteAddress)).toEqual([flaky.outboundAddress]);
  });
});
