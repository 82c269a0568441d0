/**
 * Prober health end to end (issue 13): the prober's own network fails in each of the ways real
 * hosts do — a resolver that denies everything, one that hijacks NXDOMAIN, one that does not
 * answer, port 25 refused, port 25 filtered, providers refusing our address — and no verdict
 * calls anybody's address invalid for it, over HTTP and in a list's results; /readyz and the
 * log say what is wrong. And the other side: in a healthy world 310, 420 and 400 still come.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HealthTuning } from '../../src/wiring/prober-health.js';
import type { TestApp } from '../helpers/app.js';
import { finishedList, submitList } from '../helpers/lists.js';
import { ev, readyz, startMailboxApp } from '../helpers/mailbox-app.js';
import { closedPort, startSilentListeners } from '../helpers/world/egress.js';
import { startTestWorld, type TestWorld } from '../helpers/world/index.js';

let world: TestWorld;
let smtpAddresses: string[];
const apps: TestApp[] = [];

beforeAll(async () => {
  world = await startTestWorld();
  smtpAddresses = [...new Set(Object.keys(world.smtp).map((name) => world.smtpAddress(name as never)))];
});
afterEach(async () => {
  world.reset();
  await Promise.all(apps.splice(0).map((a) => a.close()));
});
afterAll(() => world.close());

const startApp = (env: Record<string, string> = {}, health: HealthTuning = {}) => startMailboxApp(world, apps, env, health);

function healthLogs(t: TestApp): { level: number; msg: string; concern: string; state: string }[] {
  return t.logs
    .map((line) => JSON.parse(line) as { level: number; msg: string; concern: string; state: string })
    .filter((l) => l.msg?.startsWith('prober health:'));
}

/** Runs a header-less list of addresses; answers the report, the results' header row and the rows under it. */
async function runList(t: TestApp, key: string, emails: string[]) {
  const { report, rows } = await finishedList(t, key, await submitList(t, key, emails));
  return { report, header: rows[0]!, rows: rows.slice(1) };
}

describe('a resolver that says NXDOMAIN to every name', () => {
  it('gives no 310 (nor anything else DNS would prove): 5 unknown, told to the operator', async () => {
    world.dns.setMode({ kind: 'nxdomain' });
    const { t, key, legacy } = await startApp();
    const ready = await readyz(t);
    expect(ready.status).toBe('ready');
    expect(ready.prober.resolver.state).toBe('failed');
    expect(ready.prober.resolver.evidence).toContain('canary canary-mail.com: NXDOMAIN');
    expect(ready.prober.resolver.hint).toContain('MAILSURE_DNS_SERVERS');
    expect(ready.prober.mailbox_verification).toBe('unavailable');

    for (const email of [world.addresses.known, `alice@${world.domains.nxdomain}`, world.addresses.unknown]) {
      expect(await ev(t, key, email)).toMatchObject({ status: 'unknown', status_code: 5 });
      expect(await ev(t, legacy, email)).toMatchObject({ status: 'unknown', status_code: 5 });
    }
    // One line when the state changed, not one per request.
    const lines = healthLogs(t).filter((l) => l.concern === 'resolver');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, state: 'failed' });
    expect(lines[0]!.msg).toContain('the resolver denies domains that exist');
  });

  it('marks every row of a list unknown, with a note on the row and in the report', async () => {
    world.dns.setMode({ kind: 'nxdomain' });
    const { t, key } = await startApp();
    const { report, header, rows } = await runList(t, key, [world.addresses.known, `bob@${world.domains.nxdomain}`, 'not-an-address']);
    expect(report.status_codes).toEqual({ '5': 2, '150': 1 });
    expect(report.statuses.Invalid).toBe(1);
    expect(report.verification_limited).toEqual({
      'Limited Records': 2,
      'Resolver Not Trusted': 2,
      'SMTP Egress Blocked': 0,
      'Prober Refused': 0,
      'Provider Throttled': 0,
    });
    expect(header).toContain('Verification Note');
    const note = header.indexOf('Verification Note');
    expect(rows[0]![note]).toContain('could not trust its DNS resolver');
    expect(rows[2]![note]).toBe('');
  });
});

describe('a resolver that answers names that do not exist (NXDOMAIN hijacking)', () => {
  it('is failed by the random-name check; no verdict about the hijacked names', async () => {
    // The hijacker points unknown names at an address that refuses port 25: without the check,
    // every address at a misspelt domain would be 420 invalid.
    world.dns.setMode({ kind: 'hijack', address: world.smtpAddress('refuse') });
    const { t, key } = await startApp();
    const ready = await readyz(t);
    expect(ready.prober.resolver.state).toBe('failed');
    expect(
      ready.prober.resolver.evidence.some((e) =>
        /^random name mailsure-nx-[a-z0-9]+\.com: no MX, but an address record \(it must not exist\)$/.test(e),
      ),
    ).toBe(true);
    expect(ready.prober.resolver.hint).toContain('NXDOMAIN hijacking');
    expect(await ev(t, key, `alice@${world.domains.nxdomain}`)).toMatchObject({ status: 'unknown', status_code: 5 });
    expect(await ev(t, key, world.addresses.unknown)).toMatchObject({ status: 'unknown', status_code: 5 });
    expect(
      healthLogs(t)
        .filter((l) => l.concern === 'resolver')
        .map((l) => l.state),
    ).toEqual(['failed']);
    const { report } = await runList(t, key, [`erin@${world.domains.nxdomain}`, world.addresses.known]);
    expect(report.status_codes).toEqual({ '5': 2 });
    expect(report.verification_limited).toMatchObject({ 'Limited Records': 2, 'Resolver Not Trusted': 2 });
  });
});

describe('a resolver that does not answer', () => {
  it('is failed, and verdicts are 5 at once instead of after every lookup times out', async () => {
    const port = await closedPort(['127.0.0.2']);
    const { t, key } = await startApp({ MAILSURE_DNS_SERVERS: `127.0.0.2:${port}` });
    const ready = await readyz(t);
    expect(ready.prober.resolver.state).toBe('failed');
    expect(ready.prober.resolver.evidence[0]).toMatch(/^canary canary-mail\.com: no answer \(E[A-Z]+\)$/);
    expect(ready.prober.resolver.hint).toContain('the resolver does not answer');
    expect(await ev(t, key, world.addresses.known)).toMatchObject({ status: 'unknown', status_code: 5 });
    expect(healthLogs(t).map((l) => [l.concern, l.state])).toContainEqual(['resolver', 'failed']);
    const { report, header, rows } = await runList(t, key, [world.addresses.unknown, `frank@${world.domains.nxdomain}`]);
    expect(report.status_codes).toEqual({ '5': 2 });
    expect(rows.map((r) => r[header.indexOf('Verification Note')])).toEqual([
      'not verified: the verifier could not trust its DNS resolver; verify again once it is fixed',
      'not verified: the verifier could not trust its DNS resolver; verify again once it is fixed',
    ]);
  });
});

describe('outbound port 25 refused on every MX host', () => {
  it('never gives 420 or 400: the answer stops at what DNS proved (20), and says why', async () => {
    const port = await closedPort(smtpAddresses);
    const { t, key, legacy } = await startApp({ MAILSURE_SMTP_PORT: String(port) });
    const ready = await readyz(t);
    expect(ready.prober.resolver.state).toBe('ok');
    expect(ready.prober.smtp_egress.state).toBe('failed');
    expect(ready.prober.smtp_egress.evidence).toEqual([`mx.canary-mail.com [127.0.0.23]:${port}: connection refused`]);
    expect(ready.prober.smtp_egress.hint).toContain(`outbound TCP port ${port} is blocked`);
    expect(ready.prober.mailbox_verification).toBe('unavailable');

    for (const email of [world.addresses.known, world.addresses.unknown, `alice@${world.domains.refused}`]) {
      expect(await ev(t, key, email)).toMatchObject({ status: 'valid', status_code: 20 });
      expect(await ev(t, legacy, email)).toMatchObject({ status: 'unknown', status_code: 20 });
    }
    // DNS is healthy: what it proves is still proven.
    expect(await ev(t, key, `alice@${world.domains.nxdomain}`)).toMatchObject({ status: 'invalid', status_code: 310 });
    // Nothing was probed: the blocked egress costs no time-out per address.
    expect(Object.values(world.smtp).reduce((n, log) => n + log.connections, 0)).toBe(0);
    const line = healthLogs(t).find((l) => l.concern === 'smtp_egress');
    expect(line).toMatchObject({ level: 40, state: 'failed' });
  });

  it('says so on the list rows and in the report', async () => {
    const port = await closedPort(smtpAddresses);
    const { t, key } = await startApp({ MAILSURE_SMTP_PORT: String(port) });
    const { report, header, rows } = await runList(t, key, [
      world.addresses.known,
      world.addresses.unknown,
      `carol@${world.domains.nxdomain}`,
    ]);
    expect(report.status_codes).toEqual({ '20': 2, '310': 1 });
    expect(report.verification_limited).toMatchObject({ 'Limited Records': 2, 'SMTP Egress Blocked': 2 });
    const note = header.indexOf('Verification Note');
    expect(note).toBeGreaterThan(0);
    expect(rows.map((r) => r[note])).toEqual([
      'mailbox not checked: SMTP port 25 was blocked from the verifier; verify again once it is open',
      'mailbox not checked: SMTP port 25 was blocked from the verifier; verify again once it is open',
      '',
    ]);
  });
});

describe('outbound port 25 filtered (connections held, no banner)', () => {
  it('is failed by the canary check, and probes are not attempted', async () => {
    const silent = await startSilentListeners(smtpAddresses);
    try {
      const { t, key } = await startApp({ MAILSURE_SMTP_PORT: String(silent.port) }, { connectTimeoutMs: 1_000, bannerTimeoutMs: 1_000 });
      const ready = await readyz(t);
      expect(ready.prober.smtp_egress.state).toBe('failed');
      expect(ready.prober.smtp_egress.evidence[0]).toContain('connected, but no banner came (filtered or intercepted)');
      expect(await ev(t, key, world.addresses.unknown)).toMatchObject({ status: 'valid', status_code: 20 });
      expect(await ev(t, key, `alice@${world.domains.refused}`)).toMatchObject({ status: 'valid', status_code: 20 });
      expect(healthLogs(t).find((l) => l.concern === 'smtp_egress')).toMatchObject({ level: 40, state: 'failed' });
      const { report } = await runList(t, key, [world.addresses.unknown, world.addresses.known]);
      expect(report.status_codes).toEqual({ '20': 2 });
      expect(report.verification_limited).toMatchObject({ 'Limited Records': 2, 'SMTP Egress Blocked': 2 });
    } finally {
      await silent.close();
    }
  });
});

describe('providers refusing the prober itself (554 5.7.1 client host listed)', () => {
  it('is never 400 or 420; several providers saying so fail the identity concern', async () => {
    const { t, key, legacy } = await startApp();
    for (const domain of [world.domains.blocksUsA, world.domains.blocksUsB, world.domains.blocksUsC]) {
      expect(await ev(t, key, `alice@${domain}`)).toMatchObject({ status: 'valid', status_code: 20 });
      expect(await ev(t, legacy, `alice@${domain}`)).toMatchObject({ status: 'unknown', status_code: 20 });
    }
    const ready = await readyz(t);
    expect(ready.prober.identity.state).toBe('failed');
    expect(ready.prober.identity.evidence).toContain(
      'blocks-us-a.com refused us: 554 5.7.1 Service unavailable; Client host [127.0.0.1] rejected: listed on zen.spamhaus.org',
    );
    expect(ready.prober.identity.hint).toContain('providers refuse this prober itself');
    // Reported, not enforced: mailbox verification goes on.
    expect(ready.prober.mailbox_verification).toBe('available');
    expect(
      healthLogs(t)
        .filter((l) => l.concern === 'identity')
        .map((l) => l.state),
    ).toEqual(['ok', 'degraded', 'failed']);

    const { report, header, rows } = await runList(t, key, [`bob@${world.domains.blocksUsA}`, world.addresses.known]);
    expect(report.verification_limited).toMatchObject({ 'Limited Records': 1, 'Prober Refused': 1 });
    expect(rows[0]![header.indexOf('Verification Note')]).toBe(
      'mailbox not checked: the provider refused the verifier itself, not this address',
    );
  });
});

describe('a healthy world: no over-correction', () => {
  it('still gives 310, 325, 420, 400 and 50, with every concern reported', async () => {
    const { t, key } = await startApp();
    const ready = await readyz(t);
    expect(ready.prober.resolver.state).toBe('ok');
    expect(ready.prober.smtp_egress.state).toBe('ok');
    expect(ready.prober.mailbox_verification).toBe('available');
    expect(await ev(t, key, `alice@${world.domains.nxdomain}`)).toMatchObject({ status: 'invalid', status_code: 310 });
    expect(await ev(t, key, `alice@${world.domains.noMail}`)).toMatchObject({ status: 'invalid', status_code: 325 });
    expect(await ev(t, key, `alice@${world.domains.refused}`)).toMatchObject({ status: 'invalid', status_code: 420 });
    expect(await ev(t, key, world.addresses.unknown)).toMatchObject({ status: 'invalid', status_code: 400 });
    expect(await ev(t, key, world.addresses.known)).toMatchObject({ status: 'safetosend', status_code: 50 });
    const { report, header } = await runList(t, key, [world.addresses.known, `dave@${world.domains.nxdomain}`]);
    expect(report.verification_limited).toBeUndefined();
    expect(header).not.toContain('Verification Note');
  });

  it('notices a resolver that starts lying after the start-up check before the next 310', async () => {
    const { t, key } = await startApp({}, { resolverConfirmMs: 0 });
    expect((await readyz(t)).prober.resolver.state).toBe('ok');
    world.dns.setMode({ kind: 'nxdomain' });
    expect(await ev(t, key, world.addresses.knownToo)).toMatchObject({ status: 'unknown', status_code: 5 });
    expect((await readyz(t)).prober.resolver.state).toBe('failed');
    world.dns.setMode({ kind: 'honest' });
    await t.health.checkNow();
    expect((await readyz(t)).prober.resolver.state).toBe('ok');
    expect(
      healthLogs(t)
        .filter((l) => l.concern === 'resolver')
        .map((l) => l.state),
    ).toEqual(['ok', 'failed', 'ok']);
  });
});
