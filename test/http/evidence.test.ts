/**
 * `explain=true` on /v5/ev end to end (issue 28 part 3) against the test world's real DNS and SMTP
 * servers on loopback: every verdict path names the rule that decided, with the stages, DNS
 * answers, prober health and this call's own SMTP conversation; without `explain` (or for a key
 * without the evidence permission) the answer is byte for byte the contract's; no call's evidence
 * ever holds another call's address, even on a shared session.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseExplain } from '../../src/http/routes/verify.js';
import { RULES } from '../../src/verification/rules.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startMailboxApp } from '../helpers/mailbox-app.js';
import { untilSmtpQuiet } from '../helpers/quiet-smtp.js';
import { closedPort } from '../helpers/world/egress.js';
import { startTestWorld, type TestWorld } from '../helpers/world/index.js';

let world: TestWorld;
let t: TestApp;
let explained: string;
let plain: string;
let legacyExplained: string;
const apps: TestApp[] = [];

beforeAll(async () => {
  world = await startTestWorld();
  t = await makeTestApp({ env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'mailbox', MAILSURE_SMTP_FROM: 'verify@probe.mailsure-test.com' } });
  explained = (await t.key('explained', { evidence: true })).key;
  plain = (await t.key('plain')).key;
  legacyExplained = (await t.key('legacy', { variant: 'email_validation', evidence: true })).key;
});
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  await t.close();
  await world.close();
});
beforeEach(() => untilSmtpQuiet(world));

interface Step {
  command?: string;
  role?: string;
  code?: number;
  enhanced?: string;
  text?: string;
  at_ms: number;
  took_ms?: number;
}
interface Evidence {
  rule: string;
  rule_summary: string;
  rule_doc: string;
  reason?: string;
  stages: ({ stage: string } & Record<string, unknown>)[];
  smtp: { host: string; address?: string; egress: string; tls?: boolean; attempt: number; joined?: true; transcript: Step[] }[];
}

async function raw(app: TestApp, key: string, email: string, extra = '') {
  return app.app.inject({ url: `/v5/ev?email=${encodeURIComponent(email)}&api_key=${key}${extra}` });
}

async function explain(email: string, app = t, key = explained) {
  const res = await raw(app, key, email, '&explain=true');
  expect(res.statusCode).toBe(200);
  const body = res.json() as { safe_to_send?: { status_code: number }; email_validation?: { status_code: number }; evidence: Evidence };
  expect(body.evidence).toBeDefined();
  return { code: (body.safe_to_send ?? body.email_validation)!.status_code, evidence: body.evidence };
}

const stage = (evidence: Evidence, name: string) => evidence.stages.find((s) => s.stage === name);

describe('explain=true names the rule that decided, on every path', () => {
  it('syntax: the fault and its rule', async () => {
    const { code, evidence } = await explain('ann@@example.com');
    expect(code).toBe(155);
    expect(evidence).toEqual({
      rule: 'syntax.multiple-at-signs',
      rule_summary: 'more than one @ sign',
      rule_doc: 'docs/verification.md#rule-syntax-multiple-at-signs',
      stages: [{ stage: 'syntax', result: 'invalid', reason: 'more than one @ sign' }],
      smtp: [],
    });
  });

  it("a list hit: the list's name and whether the address or its domain matched, nothing else of the list", async () => {
    const d = world.domains.mailboxOk;
    await t.storage.policy.add([{ kind: 'trap', value: `trap@${d}` }]);
    const listed = await explain(`trap@${d}`);
    expect(listed.code).toBe(525);
    expect(listed.evidence.rule).toBe('list.trap');
    expect(stage(listed.evidence, 'lists')).toEqual({ stage: 'lists', owner: 'shared', list: 'trap', matched: 'address' });
    expect(listed.evidence.smtp).toEqual([]);
    const key = await t.storage.keys.findByName('explained');
    await t.storage.clientLists.add(key!.id, [{ kind: 'suppression', value: 'suppressed-client.com' }]);
    const own = await explain('x@suppressed-client.com');
    expect([own.code, own.evidence.rule]).toEqual([255, 'list.client-suppression']);
    expect(stage(own.evidence, 'lists')).toEqual({ stage: 'lists', owner: 'key', list: 'suppression', matched: 'domain' });
  });

  it('DNS: the answer that decided (NXDOMAIN, null MX), and the MX hosts with their addresses and TTLs', async () => {
    const missing = await explain(`alice@${world.domains.nxdomain}`);
    expect([missing.code, missing.evidence.rule]).toEqual([310, 'dns.nxdomain']);
    expect(stage(missing.evidence, 'dns')).toEqual({ stage: 'dns', route: 'nxdomain', mx: [], hosts: [] });
    const nullMx = await explain(`alice@${world.domains.nullMx}`);
    expect([nullMx.code, nullMx.evidence.rule]).toEqual([325, 'dns.null-mx']);
    // (A domain no earlier case probed: the mailbox case below sees its catch-all probe.)
    const known = await explain(world.addresses.starttlsKnown);
    expect(known.evidence.smtp[0]).toMatchObject({ tls: true, address: '127.0.0.19' });
    const dns = stage(known.evidence, 'dns') as unknown as {
      route: string;
      mx: { host: string; preference: number }[];
      hosts: { host: string; answer: string; addresses: string[]; ttl_seconds: number }[];
    };
    expect(dns.route).toBe('mx');
    expect(dns.mx.length).toBeGreaterThan(0);
    expect(dns.hosts[0]).toMatchObject({ host: dns.mx[0]!.host, answer: 'addresses', addresses: ['127.0.0.19'] });
    expect(dns.hosts[0]!.ttl_seconds).toEqual(expect.any(Number));
  });

  it('mailbox: an unknown user, with this call’s SMTP conversation, our sender and the catch-all probe marked', async () => {
    const { code, evidence } = await explain(world.addresses.unknown);
    expect(code).toBe(400);
    expect(evidence.rule).toBe('mailbox.unknown-user');
    expect(evidence.reason).toBeUndefined();
    expect(evidence.stages.map((s) => s.stage)).toEqual(['syntax', 'prober-health', 'dns', 'provider', 'catch-all', 'mailbox']);
    expect(stage(evidence, 'provider')).toEqual({ stage: 'provider', profile: 'default', rcpt: 'mailbox' });
    const [host] = evidence.smtp;
    expect(host).toMatchObject({ address: '127.0.0.10', egress: 'egress-1', attempt: 1 });
    const steps = host!.transcript;
    expect(steps[0]).toMatchObject({ code: 220 });
    expect(steps[0]!.command).toBeUndefined();
    expect(steps.find((s) => s.command?.startsWith('EHLO '))).toMatchObject({ code: 250 });
    expect(steps.find((s) => s.command?.startsWith('MAIL FROM:'))).toMatchObject({
      command: 'MAIL FROM:<verify@probe.mailsure-test.com>',
      role: 'our-sender',
      code: 250,
    });
    expect(steps.find((s) => s.role === 'address')).toMatchObject({
      command: `RCPT TO:<${world.addresses.unknown}>`,
      code: 550,
      enhanced: '5.1.1',
    });
    expect(steps.find((s) => s.role === 'catch-all-probe')?.command).toMatch(/^RCPT TO:<[a-z0-9]{14}@mailbox-ok\.com>$/);
    for (const step of steps) expect(step.at_ms).toEqual(expect.any(Number));
  });

  it('mailbox: an existing one, then the catch-all domain, then its cached fact', async () => {
    const known = await explain(world.addresses.known);
    expect([known.code, known.evidence.rule]).toEqual([50, 'mailbox.accepted']);
    // The domain's catch-all fact: learnt by this probe, or by an earlier one of the file and cached.
    expect([
      { stage: 'catch-all', known: 'no' },
      { stage: 'catch-all', known: 'unknown', learnt: 'no' },
    ]).toContainEqual(stage(known.evidence, 'catch-all'));
    const first = await explain(`first@${world.domains.acceptAll}`);
    expect([first.code, first.evidence.rule]).toEqual([45, 'mailbox.catch-all']);
    expect(stage(first.evidence, 'catch-all')).toEqual({ stage: 'catch-all', known: 'unknown', learnt: 'yes' });
    const cached = await explain(`second@${world.domains.acceptAll}`);
    expect([cached.code, cached.evidence.rule]).toEqual([45, 'catch-all.known']);
    expect(cached.evidence.smtp).toEqual([]);
  });

  it('a temporary refusal, asked again once: both attempts, and a one-line reason for the 20', async () => {
    const { code, evidence } = await explain(`alice@${world.domains.tempfail}`);
    expect([code, evidence.rule]).toEqual([20, 'mailbox.temporary']);
    expect(evidence.reason).toBe(RULES['mailbox.temporary'].summary);
    expect(evidence.smtp.map((h) => h.attempt)).toEqual([1, 2]);
  });

  it('a refusal of our probe by policy: a reason, never a verdict about the address', async () => {
    const { code, evidence } = await explain(`alice@${world.domains.policyBlock}`);
    expect(code).toBe(20);
    expect(['mailbox.policy', 'mailbox.refusal-of-us']).toContain(evidence.rule);
    expect(evidence.reason).toEqual(expect.any(String));
  });

  it('a silent tarpit: unknown (5), with the reason in one line', async () => {
    const res = await raw(t, explained, `alice@${world.domains.tarpit}`, '&explain=true&timeout=1');
    const body = res.json() as { safe_to_send: { status_code: number }; evidence: Evidence };
    expect([body.safe_to_send.status_code, body.evidence.rule]).toEqual([5, 'mailbox.timeout']);
    expect(body.evidence.reason).toBe('no SMTP answer before the deadline');
  });

  it('the legacy variant carries the same evidence', async () => {
    const { code, evidence } = await explain(world.addresses.unknown, t, legacyExplained);
    expect([code, evidence.rule]).toEqual([400, 'mailbox.unknown-user']);
  });
});

describe('a degraded prober', () => {
  it('port 25 blocked: what DNS proved, the health that decided it, and why in one line', async () => {
    const port = await closedPort([...new Set(Object.keys(world.smtp).map((name) => world.smtpAddress(name as never)))]);
    const { t: blocked } = await startMailboxApp(world, apps, { MAILSURE_SMTP_PORT: String(port) });
    const key = (await blocked.key('e', { evidence: true })).key;
    const { code, evidence } = await explain(world.addresses.unknown, blocked, key);
    expect([code, evidence.rule]).toEqual([20, 'health.egress-blocked']);
    expect(stage(evidence, 'prober-health')).toMatchObject({ resolver: 'ok', smtp_egress: 'failed' });
    expect(evidence.reason).toMatch(/^mailbox not checked: our way out to port 25/);
    expect(evidence.smtp).toEqual([]);
  });

  it('a resolver that does not answer: unknown, the resolver named', async () => {
    const port = await closedPort(['127.0.0.2']);
    const { t: deaf } = await startMailboxApp(world, apps, { MAILSURE_DNS_SERVERS: `127.0.0.2:${port}` });
    const key = (await deaf.key('e', { evidence: true })).key;
    const { code, evidence } = await explain(world.addresses.known, deaf, key);
    expect([code, evidence.rule]).toEqual([5, 'dns.resolver-not-trusted']);
    expect(stage(evidence, 'prober-health')).toMatchObject({ resolver: 'failed' });
    expect(evidence.reason).toMatch(/^not verified: our DNS resolver is not trusted/);
  });
});

describe('the verdict memory', () => {
  it('says the verdict was remembered, by which rule, and probes nothing', async () => {
    const remembering = await makeTestApp({ env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'mailbox', MAILSURE_VERDICT_MEMORY: 'on' } });
    apps.push(remembering);
    const key = (await remembering.key('e', { evidence: true })).key;
    expect((await explain(world.addresses.unknown, remembering, key)).evidence.rule).toBe('mailbox.unknown-user');
    await untilSmtpQuiet(world);
    world.reset();
    const again = await explain(world.addresses.unknown, remembering, key);
    expect([again.code, again.evidence.rule]).toEqual([400, 'memory.remembered']);
    expect(stage(again.evidence, 'verdict-memory')).toMatchObject({
      stage: 'verdict-memory',
      rule: 'mailbox.unknown-user',
      remembered_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(again.evidence.smtp).toEqual([]);
    expect(world.smtp.mailboxes.connections).toBe(0);
  });
});

describe('without explain, the contract', () => {
  it('is byte for byte the same answer: no explain, explain=false, and a key without the permission asking', async () => {
    for (const email of [world.addresses.known, 'ann@@example.com', `alice@${world.domains.nxdomain}`]) {
      const contract = (await raw(t, plain, email)).body;
      expect(contract).not.toContain('evidence');
      expect((await raw(t, explained, email)).body).toBe(contract);
      expect((await raw(t, explained, email, '&explain=false')).body).toBe(contract);
      // A key without the evidence permission gets the contract's answer, without evidence (documented).
      expect((await raw(t, plain, email, '&explain=true')).body).toBe(contract);
      // With it, the same verdict with `evidence` beside it.
      const { evidence: _evidence, ...verdict } = (await raw(t, explained, email, '&explain=true')).json() as Record<string, unknown>;
      expect(JSON.stringify(verdict)).toBe(contract);
    }
  });

  it('refuses a bad explain with the contract’s error shape, and a key without verification as today', async () => {
    for (const bad of ['maybe', 'TRUE', '1', '']) {
      const res = await raw(t, explained, world.addresses.known, `&explain=${bad}`);
      expect([res.statusCode, res.json()]).toEqual([
        400,
        { error_code: 400, error_msg: 'Invalid parameter explain: must be true or false' },
      ]);
    }
    // Every other string is refused the same way (property).
    fc.assert(
      fc.property(fc.string(), (value) => {
        if (value === 'true' || value === 'false') return expect(parseExplain(value)).toBe(value === 'true');
        expect(() => parseExplain(value)).toThrow('Invalid parameter explain: must be true or false');
      }),
    );
    expect(parseExplain(undefined)).toBe(false);
    const enrichOnly = (await t.key('enrich-only', { services: 'enrichment', evidence: true })).key;
    const refused = await raw(t, enrichOnly, world.addresses.known, '&explain=true');
    expect([refused.statusCode, refused.body]).toEqual([401, 'API key is not permitted for this endpoint']);
  });
});

describe('evidence never holds another call’s address', () => {
  it('eight calls at once on shared sessions: each sees only its own RCPT and its catch-all probe', async () => {
    const fresh = await makeTestApp({ env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'mailbox' } });
    apps.push(fresh);
    const keys = [(await fresh.key('a', { evidence: true })).key, (await fresh.key('b', { evidence: true })).key];
    world.reset();
    const emails = [
      world.addresses.known,
      world.addresses.knownToo,
      ...[1, 2, 3, 4, 5, 6].map((i) => `nobody${i}@${world.domains.mailboxOk}`),
    ];
    const answers = await Promise.all(emails.map((email, i) => explain(email, fresh, keys[i % 2])));
    await untilSmtpQuiet(world);
    expect(world.smtp.mailboxes.connections).toBeLessThanOrEqual(2);
    for (const [i, { evidence }] of answers.entries()) {
      const rcpts = evidence.smtp.flatMap((h) => h.transcript.filter((s) => s.command?.startsWith('RCPT')));
      expect(rcpts.filter((s) => s.role === 'address').map((s) => s.command)).toEqual([`RCPT TO:<${emails[i]}>`]);
      for (const s of rcpts) expect(s.role === 'address' || /^RCPT TO:<[a-z0-9]{14}@mailbox-ok\.com>$/.test(s.command!)).toBe(true);
      const text = JSON.stringify(evidence);
      for (const other of emails.filter((_, j) => j !== i)) expect(text).not.toContain(other);
    }
  });
});
