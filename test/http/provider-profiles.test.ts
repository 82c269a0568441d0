/**
 * Provider profiles end to end (issue 21): the real server over HTTPS, the test world's simulated
 * providers (test/helpers/world/provider-sims.ts) answering with their own texts. For every
 * profile, in both response variants: an existing user, an unknown user, a prober the provider
 * blocks, and a prober it throttles. Never a false 400 at an accept-all provider or gateway; a
 * blocked or throttled prober's addresses end unknown, never invalid.
 */
import { request } from 'node:https';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { finishedList as finished, submitList } from '../helpers/lists.js';
import { untilSmtpQuiet } from '../helpers/quiet-smtp.js';
import { startTlsTestApp, type TlsTestApp } from '../helpers/tls-app.js';
import { providerScenario, startTestWorld, type ProviderMode, type ProviderSimName, type TestWorld } from '../helpers/world/index.js';
import { PROVIDERS } from '../helpers/world/provider-scenario.js';
import { PROFILES } from '../../src/verification/providers/profiles.js';
import { until } from '../helpers/until.js';

let world: TestWorld<typeof providerScenario>;
let server: TlsTestApp;
let current: string;
let legacy: string;

beforeAll(async () => {
  world = await startTestWorld(providerScenario);
  server = await startTlsTestApp({
    env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'mailbox', MAILSURE_SMTP_HELO: 'probe.mailsure-test.com' },
  });
  current = (await server.t.key('current')).key;
  legacy = (await server.t.key('legacy', { variant: 'email_validation' })).key;
});
// Sessions are shared a moment past their last answer: each case starts with none open, so the
// mode it sets is the one its sessions meet.
beforeEach(() => untilSmtpQuiet(world));
afterAll(async () => {
  await server?.close();
  await world?.close();
});

function get(path: string, port = server.port): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

interface Both {
  code: number;
  status: string;
  legacyCode: number;
  legacyStatus: string;
}

/** One address through both variants, over HTTPS. */
async function verify(email: string): Promise<Both> {
  const ask = async (key: string) => {
    // Each call on a session of its own, as the connection counts below expect (a call a moment
    // after another would ride its session: batch-prober.ts).
    await untilSmtpQuiet(world);
    const res = await get(`/v5/ev?email=${encodeURIComponent(email)}&api_key=${key}`);
    expect(res.status).toBe(200);
    return JSON.parse(res.body) as Record<string, { status: string; status_code: number }>;
  };
  const a = (await ask(current)).safe_to_send!;
  const b = (await ask(legacy)).email_validation!;
  return { code: a.status_code, status: a.status, legacyCode: b.status_code, legacyStatus: b.status };
}

const DELIVERABLE: Both = { code: 50, status: 'safetosend', legacyCode: 50, legacyStatus: 'valid' };
const NO_MAILBOX: Both = { code: 400, status: 'invalid', legacyCode: 400, legacyStatus: 'invalid' };
/** Mailbox not checkable: `valid` in safe_to_send, `unknown` in the legacy variant and in lists. */
const UNCHECKABLE: Both = { code: 20, status: 'valid', legacyCode: 20, legacyStatus: 'unknown' };

interface Expected {
  existing: Both;
  unknown: Both;
}

const EXPECTED: Record<ProviderSimName, Expected> = {
  google: { existing: DELIVERABLE, unknown: NO_MAILBOX },
  // 50 needs the random local part's 550 5.4.1 read as "no such user": the profile's mapping.
  'microsoft-365': { existing: DELIVERABLE, unknown: NO_MAILBOX },
  'outlook-com': { existing: DELIVERABLE, unknown: NO_MAILBOX },
  // Accepts everyone at RCPT: never probed, never 50, never 400.
  yahoo: { existing: UNCHECKABLE, unknown: UNCHECKABLE },
  icloud: { existing: DELIVERABLE, unknown: NO_MAILBOX },
  // Gateways with recipient validation: their refusal is proof, their acceptance is not.
  mimecast: { existing: UNCHECKABLE, unknown: NO_MAILBOX },
  proofpoint: { existing: UNCHECKABLE, unknown: NO_MAILBOX },
  barracuda: { existing: UNCHECKABLE, unknown: NO_MAILBOX },
};

const names = Object.keys(EXPECTED) as ProviderSimName[];
const existing = (name: ProviderSimName) => `alice@${PROVIDERS[name].domains[0]}`;
const unknownUser = (name: ProviderSimName) => `nobody.here@${PROVIDERS[name].domains[0]}`;

function prepare(name: ProviderSimName, mode: ProviderMode): void {
  world.reset();
  if (mode !== 'normal') world.setProviderMode(name, mode);
}

describe.each(names)('%s', (name) => {
  const log = () => world.smtp[name];

  it('an existing user', async () => {
    prepare(name, 'normal');
    expect(await verify(existing(name))).toEqual(EXPECTED[name].existing);
    if (name === 'yahoo') expect(log().connections).toBe(0);
  });

  it('an unknown user', async () => {
    prepare(name, 'normal');
    expect(await verify(unknownUser(name))).toEqual(EXPECTED[name].unknown);
  });

  it('a prober the provider blocks: unknown, never invalid', async () => {
    prepare(name, 'blocked');
    expect(await verify(existing(name))).toEqual(UNCHECKABLE);
    expect(await verify(unknownUser(name))).toEqual(UNCHECKABLE);
  });

  it('a prober the provider throttles: unknown, never invalid, and no retry into the throttle', async () => {
    prepare(name, 'throttled');
    expect(await verify(existing(name))).toEqual(UNCHECKABLE);
    expect(await verify(unknownUser(name))).toEqual(UNCHECKABLE);
    // Two addresses, two variants: one connection each, not two (a "slow down" is not retried at once).
    if (name !== 'yahoo') expect(log().connections).toBe(4);
  });
});

describe('a provider that throttles part-way', () => {
  it('Gmail: the addresses before its limit are verified, the ones after it are unknown, none invalid', async () => {
    prepare('google', 'normal');
    world.setProviderMode('google', 'throttled', 2);
    // Two connections allowed: one address in both variants.
    expect(await verify(existing('google'))).toEqual(DELIVERABLE);
    expect(await verify(unknownUser('google'))).toEqual(UNCHECKABLE);
    expect(await verify(existing('google'))).toEqual(UNCHECKABLE);
    expect(log('google').connections).toBe(6);
  });
});

const rcptCodes = (name: ProviderSimName) => log(name).sessions.flatMap((s) => s.rcpts.map((r) => r.code));

describe('a list at throttled providers', () => {
  it('holds the rows back and asks again, then ends them unknown (never invalid) and says why', async () => {
    const throttled = ['google', 'microsoft-365', 'icloud', 'mimecast'] as const;
    world.reset();
    for (const name of throttled) world.setProviderMode(name, 'throttled');
    const emails = throttled.flatMap((name) => [existing(name), unknownUser(name)]);
    // This server holds throttled rows back for 1.5 s (test/helpers/app.ts): asked again at least once.
    const { report, rows } = await finished(server, legacy, await submitList(server, legacy, emails));
    expect(report.status_codes).toEqual({ '20': emails.length });
    expect(report.statuses).toMatchObject({ Unknown: emails.length, Invalid: 0, Valid: 0 });
    expect(report.verification_limited).toEqual({
      'Limited Records': emails.length,
      'Resolver Not Trusted': 0,
      'SMTP Egress Blocked': 0,
      'Prober Refused': 0,
      'Provider Throttled': emails.length,
    });
    for (const name of throttled) expect(rcptCodes(name).length).toBeGreaterThanOrEqual(4);
    expect(rows.slice(1).map((row) => row[0])).toEqual(emails);
    expect(rows.slice(1).every((row) => !row.includes('invalid'))).toBe(true);
    const note = rows[0]!.indexOf('Verification Note');
    expect(rows.slice(1).map((row) => row[note])).toEqual(
      emails.map(() => 'mailbox not checked: the provider kept asking the verifier to slow down; verify again later'),
    );
  });

  it('asks the held rows again once the provider lets up: they end verified', async () => {
    // A server holding throttled rows back for up to a minute: the provider lets up well before.
    const patient = await startTlsTestApp({
      env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'mailbox', MAILSURE_SMTP_HELO: 'probe.mailsure-test.com' },
      listHoldBack: { firstWaitMs: 100, longestWaitMs: 200, totalMs: 60_000 },
    });
    try {
      const key = (await patient.t.key('legacy', { variant: 'email_validation' })).key;
      world.reset();
      world.setProviderMode('google', 'throttled');
      const emails = [existing('google'), unknownUser('google'), existing('icloud'), unknownUser('icloud')];
      const listId = await submitList(patient, key, emails);
      // Gmail refused at least once with its rate reply (421 4.7.0) before it lets up.
      await until(() => rcptCodes('google').includes(421));
      world.setProviderMode('google', 'normal');
      const { report, rows } = await finished(patient, key, listId);
      expect(rows.slice(1).map((row) => [row[0], row[1]])).toEqual([
        [existing('google'), 'valid'],
        [unknownUser('google'), 'invalid'],
        [existing('icloud'), 'valid'],
        [unknownUser('icloud'), 'invalid'],
      ]);
      expect(report.verification_limited).toBeUndefined();
      expect(rows[0]).not.toContain('Verification Note');
      // Gmail's addresses were asked again after its 421s; iCloud's once each (address and random probe).
      expect(rcptCodes('google').filter((code) => code === 421).length).toBeGreaterThanOrEqual(1);
      expect(rcptCodes('google').filter((code) => code !== 421).length).toBeGreaterThanOrEqual(2);
    } finally {
      await patient.close();
    }
  });
});

describe("a list keeps to each provider's session limits", () => {
  it('never more sessions open at once, nor RCPTs in one session, than the profile allows', async () => {
    const probed = ['google', 'microsoft-365', 'icloud', 'mimecast'] as const;
    world.reset();
    // Without corrections (they verify suggestions for every invalid row, slowing the rows down):
    // the rows reach the prober as fast as they can, and sessions fill up to their limits.
    const key = (await server.t.key('no-corrections', { services: 'verification,lists', variant: 'email_validation' })).key;
    // Interleaved as a real list mixes them; 150 rows at each provider's domain.
    const emails = Array.from({ length: 150 }, (_, i) => probed.map((name) => `person${i}@${PROVIDERS[name].domains[0]}`)).flat();
    const { report } = await finished(server, key, await submitList(server, key, emails));
    expect(report.statuses).toMatchObject({ Invalid: emails.length });
    for (const name of probed) {
      const { limits } = PROFILES.find((p) => p.id === name)!;
      const seen = log(name);
      expect(seen.maxActive).toBeLessThanOrEqual(limits.sessionsPerHost);
      expect(Math.max(...seen.sessions.map((session) => session.rcpts.length))).toBeLessThanOrEqual(limits.rcptsPerSession);
      expect(seen.sessions.flatMap((session) => session.rcpts.map((r) => r.address))).toEqual(
        expect.arrayContaining(emails.filter((e) => e.endsWith(`@${PROVIDERS[name].domains[0]}`))),
      );
    }
  });
});

describe('gateways in front of tenants that accept every recipient', () => {
  it.each(['mimecast', 'proofpoint', 'barracuda'] as const)('%s: no false 400, no 45, no 50', async (name) => {
    prepare(name, 'normal');
    const open = PROVIDERS[name].openDomains![0]!;
    for (const email of [`alice@${open}`, `nobody.here@${open}`, `x7k2m9q4@${open}`]) expect(await verify(email)).toEqual(UNCHECKABLE);
    // No catch-all probe behind a gateway: one RCPT per verdict.
    expect(log(name).sessions.flatMap((s) => s.rcpts)).toHaveLength(6);
  });
});

const log = (name: ProviderSimName) => world.smtp[name];

describe('a provider that blocks the prober is told to prober health', () => {
  it("iCloud's [CS01] refusal counts against our identity, by the profile's table (its words name no IP)", async () => {
    // A server of its own: no refusal from another test in its health state.
    const fresh = await startTlsTestApp({
      env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'mailbox', MAILSURE_SMTP_HELO: 'probe.mailsure-test.com' },
    });
    try {
      const key = (await fresh.t.key('k')).key;
      const identity = async () =>
        (JSON.parse((await get('/readyz', fresh.port)).body) as { prober: { identity: { state: string; evidence: string[] } } }).prober
          .identity;
      prepare('icloud', 'normal');
      expect((await get(`/v5/ev?email=${encodeURIComponent(existing('icloud'))}&api_key=${key}`, fresh.port)).status).toBe(200);
      expect((await identity()).evidence.join('\n')).not.toContain('refused us');
      world.setProviderMode('icloud', 'blocked');
      const res = await get(`/v5/ev?email=${encodeURIComponent(existing('icloud'))}&api_key=${key}`, fresh.port);
      expect(JSON.parse(res.body)).toMatchObject({ safe_to_send: { status: 'valid', status_code: 20 } });
      const after = await identity();
      expect(after.state).toBe('degraded');
      expect(after.evidence).toEqual([
        expect.stringContaining('icloud.com refused us: 550 5.7.1 [CS01] Message rejected due to local policy'),
      ]);
    } finally {
      await fresh.close();
    }
  });
});
