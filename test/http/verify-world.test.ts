/**
 * /v5/ev end to end against the test world: a real DNS server and real SMTP servers on loopback.
 * Every code the engine emits, in both variants, with status, code, domain type and role flag.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openMemoryStorage } from '../../src/storage/open-storage.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { untilSmtpQuiet } from '../helpers/quiet-smtp.js';
import { startTestWorld, type TestWorld } from '../helpers/world/index.js';
import { prepareActivity } from '../../src/people/activity-rules.js';

let world: TestWorld;
let t: TestApp;
let current: string;
let legacy: string;

beforeAll(async () => {
  world = await startTestWorld();
  t = await makeTestApp({ env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'mailbox' } });
  current = (await t.key('current')).key;
  legacy = (await t.key('legacy', { variant: 'email_validation' })).key;
});
afterAll(async () => {
  await t.close();
  await world.close();
});

// A shared session may still be saying QUIT after the last call's answer: each case starts when
// every server is quiet, so it opens sessions of its own against the servers it means.
beforeEach(() => quiet());
const quiet = () => untilSmtpQuiet(world);

async function check(app: TestApp, key: string, email: string, timeout?: number) {
  const res = await app.app.inject({
    url: `/v5/ev?email=${encodeURIComponent(email)}&api_key=${key}${timeout ? `&timeout=${timeout}` : ''}`,
  });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  return (body.safe_to_send ?? body.email_validation) as Record<string, unknown>;
}

type Row = [
  what: string,
  email: () => string,
  code: number,
  status: string,
  legacyStatus: string,
  domainType: string | undefined,
  role?: boolean,
  timeout?: number,
];

const rows: Row[] = [
  ['a known mailbox', () => world.addresses.known, 50, 'safetosend', 'valid', 'biz'],
  ['a role mailbox that exists', () => `info@${world.domains.mailboxOk}`, 50, 'safetosend', 'valid', 'biz', true],
  ['an unknown mailbox (550 5.1.1; `nobody` is a role name)', () => world.addresses.unknown, 400, 'invalid', 'invalid', 'biz', true],
  ['a full mailbox (452 4.2.2)', () => world.addresses.full452, 410, 'invalid', 'invalid', 'biz'],
  ['a full mailbox (552 5.2.2)', () => world.addresses.full552, 410, 'invalid', 'invalid', 'biz'],
  ['a catch-all domain', () => `whoever@${world.domains.acceptAll}`, 45, 'catchall', 'unverifiable', 'biz'],
  ['every RCPT temp-failed, after one retry', () => `alice@${world.domains.tempfail}`, 20, 'valid', 'unknown', 'org'],
  ['greylisting, accepted on the retry', () => world.addresses.greylistKnown, 50, 'safetosend', 'valid', 'org'],
  ['greylisting, unknown on the retry', () => world.addresses.greylistUnknown, 400, 'invalid', 'invalid', 'org', true],
  ['a probe blocked by policy (550 5.7.1)', () => `alice@${world.domains.policyBlock}`, 20, 'valid', 'unknown', 'biz'],
  ['connection refused on every MX', () => `alice@${world.domains.refused}`, 420, 'invalid', 'invalid', 'biz'],
  ['a silent tarpit', () => `alice@${world.domains.tarpit}`, 5, 'unknown', 'unknown', 'org', false, 1],
  ['a slow banner within the timeout', () => world.addresses.slowBannerKnown, 50, 'safetosend', 'valid', 'biz'],
  ['a slow banner past the timeout', () => world.addresses.slowBannerKnown, 5, 'unknown', 'unknown', 'biz', false, 0.5],
  ['a mailbox behind STARTTLS', () => world.addresses.starttlsKnown, 50, 'safetosend', 'valid', 'biz'],
  ['a 554 banner', () => `alice@${world.domains.bannerReject}`, 20, 'valid', 'unknown', 'org'],
  ['a UTF-8 mailbox on a server without SMTPUTF8', () => world.addresses.asciiOnlyUtf8, 510, 'invalid', 'invalid', 'biz'],
  ['a UTF-8 mailbox on a server with SMTPUTF8', () => world.addresses.utf8Known, 50, 'safetosend', 'valid', 'biz'],
  ['a hostile server flooding its reply', () => `alice@${world.domains.hostile}`, 20, 'valid', 'unknown', 'biz'],
  ['an accept-all provider (Yahoo-hosted MX)', () => `alice@${world.domains.yahooHosted}`, 20, 'valid', 'unknown', 'biz'],
  ['an implicit MX (A record only)', () => world.addresses.aOnlyKnown, 50, 'safetosend', 'valid', 'biz'],
  ['a null MX', () => `alice@${world.domains.nullMx}`, 325, 'invalid', 'invalid', undefined],
  ['NXDOMAIN', () => `alice@${world.domains.nxdomain}`, 310, 'invalid', 'invalid', undefined],
  ['no MX and no address', () => `alice@${world.domains.noMail}`, 325, 'invalid', 'invalid', undefined],
  ['SERVFAIL', () => `alice@${world.domains.servfail}`, 5, 'unknown', 'unknown', undefined],
  ['a DNS server that never answers', () => `alice@${world.domains.dnsTimeout}`, 5, 'unknown', 'unknown', 'org', false, 1],
  ['the best MX refusing, the next answering', () => world.addresses.multiMxKnown, 50, 'safetosend', 'valid', 'biz'],
  ['an MX host whose first address refuses', () => world.addresses.multiAddressKnown, 50, 'safetosend', 'valid', 'biz'],
  ['a parked domain', () => `alice@${world.domains.parked}`, 400, 'invalid', 'invalid', 'parked'],
  ['an internationalised domain', () => world.addresses.idnKnown, 50, 'safetosend', 'valid', 'biz'],
  ['a clearly dangerous mailbox', () => `postmaster@${world.domains.mailboxOk}`, 500, 'invalid', 'invalid', undefined, true],
  ['a disposable domain', () => 'someone@mailinator.com', 525, 'trap', 'invalid', 'disposable'],
  ['a free ISP (absent from the test world: NXDOMAIN)', () => 'someone@gmail.com', 310, 'invalid', 'invalid', 'freeisp'],
];

describe('GET /v5/ev against the test world', () => {
  it.each(rows)('%s', async (_what, email, code, status, legacyStatus, domainType, role, timeout) => {
    const body = await check(t, current, email(), timeout);
    expect(body.status_code).toBe(code);
    expect(body.status).toBe(status);
    expect(body.domain_type).toBe(domainType);
    expect(body.role_account).toBe(role ? true : undefined);
    const old = await check(t, legacy, email(), timeout);
    // Legacy: the same code except disposable, which is invalid 505 there.
    expect(old.status_code).toBe(code === 525 && domainType === 'disposable' ? 505 : code);
    expect(old.status).toBe(legacyStatus);
    expect(old.domain_type).toBe(domainType);
    expect(old.role_account).toBe(role ? true : undefined);
    expect(old).not.toHaveProperty('engagement_score');
  });

  it('never calls an address invalid on a 4xx, a block or a timeout', async () => {
    for (const email of [
      `x@${world.domains.tempfail}`,
      `x@${world.domains.policyBlock}`,
      `x@${world.domains.bannerReject}`,
      `x@${world.domains.yahooHosted}`,
    ]) {
      expect((await check(t, current, email)).status).not.toBe('invalid');
    }
    expect((await check(t, current, `x@${world.domains.tarpit}`, 0.5)).status).toBe('unknown');
  });

  it('never gives 50 for an accept-all provider, however many addresses', async () => {
    for (const local of ['alice', 'bob', 'zzzz9999']) {
      expect((await check(t, current, `${local}@${world.domains.yahooHosted}`)).status_code).toBe(20);
    }
  });

  it('probes the address and the catch-all check in one session, then remembers the fact', async () => {
    const fresh = await makeTestApp({ env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'mailbox' } });
    const key = (await fresh.key('k')).key;
    world.reset();
    expect((await check(fresh, key, world.addresses.knownToo)).status_code).toBe(50);
    await quiet();
    const log = world.smtp.mailboxes;
    expect(log.connections).toBe(1);
    expect(log.sessions[0]!.rcpts.map((r) => r.address)).toEqual([
      world.addresses.knownToo,
      expect.stringMatching(/^[a-z0-9]{14}@mailbox-ok\.com$/),
    ]);
    expect(log.sessions[0]!.helo).toBeDefined();
    world.reset();
    expect((await check(fresh, key, world.addresses.known)).status_code).toBe(50);
    await quiet();
    expect(world.smtp.mailboxes.sessions[0]!.rcpts.map((r) => r.address)).toEqual([world.addresses.known]);
    await fresh.close();
  });

  it('concurrent real-time calls to one MX host ride shared sessions, the catch-all probe asked once a session', async () => {
    const fresh = await makeTestApp({ env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'mailbox' } });
    const key = (await fresh.key('k')).key;
    world.reset();
    const emails = [
      world.addresses.known,
      world.addresses.knownToo,
      ...[1, 2, 3, 4, 5, 6].map((i) => `nobody${i}@${world.domains.mailboxOk}`),
    ];
    const codes = await Promise.all(emails.map(async (email) => (await check(fresh, key, email)).status_code));
    expect(codes).toEqual([50, 50, 400, 400, 400, 400, 400, 400]);
    await quiet();
    const log = world.smtp.mailboxes;
    // Eight calls at once: at most the host's two sessions (a session per call before issue 27: eight).
    expect(log.connections).toBeLessThanOrEqual(2);
    const rcpts = log.sessions.flatMap((session) => session.rcpts.map((r) => r.address));
    expect(rcpts.filter((address) => emails.includes(address)).sort()).toEqual([...emails].sort());
    for (const session of log.sessions) expect(session.rcpts.filter((r) => /^[a-z0-9]{14}@/.test(r.address)).length).toBeLessThanOrEqual(1);
    await fresh.close();
  });

  it('answers a catch-all domain from the cached fact without probing again', async () => {
    await check(t, current, `first@${world.domains.acceptAll}`);
    world.reset();
    expect((await check(t, current, `second@${world.domains.acceptAll}`)).status_code).toBe(45);
    expect(world.smtp.acceptAll.sessions).toHaveLength(0);
  });

  it('uses STARTTLS when the server offers it', async () => {
    world.reset();
    await check(t, current, world.addresses.starttlsKnown);
    expect(world.smtp.starttls.sessions[0]!.tls).toBe(true);
  });
});

describe('depth, private targets, lists', () => {
  it('stops at the operator depth: syntax → 10, domain → 20', async () => {
    const syntax = await makeTestApp({ env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'syntax' } });
    const domain = await makeTestApp({ env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'domain' } });
    const keys = async (app: TestApp) => ({
      current: (await app.key('k')).key,
      legacy: (await app.key('l', { variant: 'email_validation' })).key,
    });
    const k1 = await keys(syntax);
    const k2 = await keys(domain);
    const unknown = world.addresses.unknown; // nobody@: a role name
    // Depth syntax looks nothing up: mailbox-ok.com is on no list, so no domain type yet.
    expect(await check(syntax, k1.current, unknown)).toEqual({ address: unknown, status: 'valid', status_code: 10, role_account: true });
    expect(await check(syntax, k1.legacy, unknown)).toEqual({ address: unknown, status: 'unknown', status_code: 10, role_account: true });
    expect(await check(syntax, k1.current, world.addresses.known)).toEqual({
      address: world.addresses.known,
      status: 'valid',
      status_code: 10,
    });
    expect(await check(syntax, k1.legacy, world.addresses.known)).toEqual({
      address: world.addresses.known,
      status: 'unknown',
      status_code: 10,
    });
    // A name-listed type is known without DNS: a disposable domain is still a trap at depth syntax.
    expect(await check(syntax, k1.current, 'someone@mailinator.com')).toEqual({
      address: 'someone@mailinator.com',
      status: 'trap',
      status_code: 525,
      domain_type: 'disposable',
    });
    expect(await check(syntax, k1.legacy, 'someone@mailinator.com')).toEqual({
      address: 'someone@mailinator.com',
      status: 'invalid',
      status_code: 505,
      domain_type: 'disposable',
    });
    expect(await check(domain, k2.current, unknown)).toEqual({
      address: unknown,
      status: 'valid',
      status_code: 20,
      domain_type: 'biz',
      role_account: true,
    });
    expect(await check(domain, k2.legacy, unknown)).toEqual({
      address: unknown,
      status: 'unknown',
      status_code: 20,
      domain_type: 'biz',
      role_account: true,
    });
    const missing = `x@${world.domains.nxdomain}`;
    expect(await check(domain, k2.current, missing)).toEqual({ address: missing, status: 'invalid', status_code: 310 });
    expect(await check(domain, k2.legacy, missing)).toEqual({ address: missing, status: 'invalid', status_code: 310 });
    await syntax.close();
    await domain.close();
  });

  it('refuses MX hosts on loopback unless private targets are allowed', async () => {
    const strict = await makeTestApp({ env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'mailbox', MAILSURE_ALLOW_PRIVATE_TARGETS: '0' } });
    const key = (await strict.key('k')).key;
    const legacyKey = (await strict.key('l', { variant: 'email_validation' })).key;
    world.reset();
    const loopback = `x@${world.domains.loopbackMx}`;
    // The domain has an MX (so it is typed), but no host we may reach: it cannot receive mail from us.
    expect(await check(strict, key, loopback)).toEqual({ address: loopback, status: 'invalid', status_code: 325, domain_type: 'biz' });
    expect(await check(strict, legacyKey, loopback)).toEqual({
      address: loopback,
      status: 'invalid',
      status_code: 325,
      domain_type: 'biz',
    });
    expect(await check(strict, key, world.addresses.known)).toEqual({
      address: world.addresses.known,
      status: 'invalid',
      status_code: 325,
      domain_type: 'biz',
    });
    expect(world.smtp.mailboxes.connections).toBe(0);
    await strict.close();
    expect(await check(t, current, loopback)).toEqual({ address: loopback, status: 'invalid', status_code: 420, domain_type: 'biz' });
    expect(await check(t, legacy, loopback)).toEqual({ address: loopback, status: 'invalid', status_code: 420, domain_type: 'biz' });
  });

  it('applies shared policy lists and the key’s own suppressions and exceptions', async () => {
    const d = world.domains.mailboxOk;
    await t.storage.policy.add([
      { kind: 'trap', value: `trap@${d}` },
      { kind: 'complainer', value: `angry@${d}` },
      { kind: 'optout', value: `optout@${d}` },
      { kind: 'do_not_email', value: `dne@${d}` },
      { kind: 'bouncer', value: `bouncy@${d}` },
      { kind: 'optout', value: `sales@${d}` },
      { kind: 'do_not_email', value: world.addresses.paidIspKnown },
    ]);
    // Bouncers are reported for every key (importing the list is the opt-in) unless the key opted out.
    const optedOut = {
      current: (await t.key('no-bouncers', { bouncers: false })).key,
      legacy: (await t.key('no-bouncers-legacy', { bouncers: false, variant: 'email_validation' })).key,
    };
    const client = await t.key('client');
    const clientLegacy = await t.key('client-legacy', { variant: 'email_validation' });
    for (const id of [client.record.id, clientLegacy.record.id]) {
      await t.storage.clientLists.add(id, [
        { kind: 'suppression', value: world.addresses.known },
        { kind: 'exception', value: world.addresses.unknown },
        { kind: 'suppression', value: world.domains.refused },
        { kind: 'exception', value: `trap@${d}` },
      ]);
    }
    // A list decides before DNS, so the domain type is the one the name alone gives: none for
    // mailbox-ok.com (biz needs DNS), paidisp for comcast.net.
    type ListRow = [
      email: string,
      keys: { current: string; legacy: string },
      code: number,
      status: string,
      legacyStatus: string,
      domainType?: string,
      role?: boolean,
    ];
    const lists: ListRow[] = [
      [world.addresses.known, { current: client.key, legacy: clientLegacy.key }, 255, 'invalid', 'invalid'],
      [`anyone@${world.domains.refused}`, { current: client.key, legacy: clientLegacy.key }, 255, 'invalid', 'invalid'],
      [world.addresses.unknown, { current: client.key, legacy: clientLegacy.key }, 55, 'valid', 'valid', undefined, true],
      // The key's exception beats the shared trap list.
      [`trap@${d}`, { current: client.key, legacy: clientLegacy.key }, 55, 'valid', 'valid'],
      [`trap@${d}`, { current, legacy }, 525, 'trap', 'risky'],
      [`angry@${d}`, { current, legacy }, 525, 'trap', 'risky'],
      [`optout@${d}`, { current, legacy }, 530, 'trap', 'risky'],
      [`sales@${d}`, { current, legacy }, 530, 'trap', 'risky', undefined, true],
      [`dne@${d}`, { current, legacy }, 535, 'trap', 'risky'],
      [world.addresses.paidIspKnown, { current, legacy }, 535, 'trap', 'risky', 'paidisp'],
      [`bouncy@${d}`, { current, legacy }, 520, 'invalid', 'invalid'],
      // A key that opted out ignores the list and the mailbox is probed: it does not exist.
      [`bouncy@${d}`, optedOut, 400, 'invalid', 'invalid', 'biz'],
      // Another key's lists do not apply.
      [world.addresses.unknown, { current, legacy }, 400, 'invalid', 'invalid', 'biz', true],
      [world.addresses.known, { current, legacy }, 50, 'safetosend', 'valid', 'biz'],
    ];
    for (const [email, keys, code, status, legacyStatus, domainType, role] of lists) {
      const fields = {
        address: email,
        status_code: code,
        ...(domainType ? { domain_type: domainType } : {}),
        ...(role ? { role_account: true } : {}),
      };
      expect(await check(t, keys.current, email), `${email} (safe_to_send)`).toEqual({ ...fields, status });
      expect(await check(t, keys.legacy, email), `${email} (email_validation)`).toEqual({ ...fields, status: legacyStatus });
    }
  });
});

describe('syntax codes against the test world', () => {
  let plain: { current: string; legacy: string };
  beforeAll(async () => {
    // Without the corrections service: suggestions are tested under "corrections".
    plain = {
      current: (await t.key('syntax-current', { services: 'verification' })).key,
      legacy: (await t.key('syntax-legacy', { services: 'verification', variant: 'email_validation' })).key,
    };
  });

  // Invalid input is echoed as given, never typed (no domain was looked at); the role flag
  // follows the local part when there is one to read.
  it.each([
    ['', 100, false],
    ['alice@mailbox_ok.com', 110, false],
    ['help@mailbox_ok.com', 110, true],
    ['al\u0000ice@mailbox-ok.com', 110, false],
    ['jo(comment)hn@mailbox-ok.com', 110, false],
    ['alice@-mailbox-ok.com', 115, false],
    ['john..doe@gmail.com', 120, false],
    ['info..desk@mailbox-ok.com', 120, false],
    ['ab@gmail.com', 125, false],
    [`${'a'.repeat(65)}@mailbox-ok.com`, 130, false],
    [`alice@${'a'.repeat(250)}.com`, 130, false],
    ['@mailbox-ok.com', 140, false],
    ['alice@', 145, false],
    ['support@', 145, true],
    ['plainaddress', 150, false],
    ['a@b@mailbox-ok.com', 155, false],
    ['sales@@mailbox-ok.com', 155, false],
    ['alice@mailbox-ok.con', 200, false],
    ['info@mailbox-ok.con', 200, true],
    [' alice@mailbox-ok.com', 210, false],
    ['sales@mailbox-ok.com ', 210, true],
    ['info@mailbox-ok.com.', 210, true],
    ['alice smith@mailbox-ok.com', 215, false],
    ['info@mail box-ok.com', 215, true],
  ] as const)('%j → %i, in both variants', async (email, code, role) => {
    const fields = { address: email, status_code: code, ...(role ? { role_account: true } : {}) };
    world.reset();
    expect(await check(t, plain.current, email)).toEqual({ ...fields, status: 'invalid' });
    expect(await check(t, plain.legacy, email)).toEqual({ ...fields, status: 'invalid' });
    // Decided by syntax alone: no DNS query, no SMTP session.
    expect(world.dns.queries).toHaveLength(0);
    expect(world.smtp.mailboxes.connections).toBe(0);
  });
});

describe('our own failure', () => {
  it('answers 999 (unknown) when a store fails, and logs it without the address', async () => {
    const storage = openMemoryStorage();
    const broken = {
      ...storage,
      policy: { ...storage.policy, hasAny: async () => true, match: () => Promise.reject(new Error('disk on fire')) },
    };
    const app = await makeTestApp({ storage: broken, env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'mailbox' } });
    const key = (await app.key('k')).key;
    const legacyKey = (await app.key('l', { variant: 'email_validation' })).key;
    expect(await check(app, key, world.addresses.known)).toEqual({ address: world.addresses.known, status: 'unknown', status_code: 999 });
    expect(await check(app, legacyKey, world.addresses.known)).toEqual({
      address: world.addresses.known,
      status: 'unknown',
      status_code: 999,
    });
    const logs = app.logs.join('');
    expect(logs).toContain('verification failed');
    expect(logs).toContain('disk on fire');
    expect(logs).not.toContain('alice@');
    await app.close();
  });
});

describe('corrections', () => {
  it('offers only verified, deliverable fixes, to keys with the corrections service, and stays invalid', async () => {
    const withFixes = (await t.key('fixes', { services: 'verification,corrections' })).key;
    const legacyFixes = (await t.key('fixes-legacy', { services: 'verification,corrections', variant: 'email_validation' })).key;
    // A trailing space (210): the trimmed address exists.
    expect(await check(t, withFixes, `${world.addresses.known} `)).toEqual({
      address: `${world.addresses.known} `,
      status: 'invalid',
      status_code: 210,
      email_corrections: [world.addresses.known],
    });
    expect(await check(t, legacyFixes, `${world.addresses.known} `)).toMatchObject({
      status: 'invalid',
      status_code: 210,
      email_corrections: [world.addresses.known],
    });
    // Without the service: no corrections.
    const plain = (await t.key('no-fixes', { services: 'verification' })).key;
    expect(await check(t, plain, `${world.addresses.known} `)).not.toHaveProperty('email_corrections');
    // The fix of an address whose mailbox does not exist is not offered.
    expect(await check(t, withFixes, `${world.addresses.unknown} `)).not.toHaveProperty('email_corrections');
    // A valid address gets no suggestion.
    expect(await check(t, withFixes, world.addresses.known)).not.toHaveProperty('email_corrections');
  });

  it('offers a domain fix only when the corrected domain verifies', async () => {
    const withFixes = (await t.key('fixes2', { services: 'verification,corrections' })).key;
    expect(await check(t, withFixes, `alice@${world.domains.mailboxOk.replace('.com', '.con')}`)).toEqual({
      address: 'alice@mailbox-ok.con',
      status: 'invalid',
      status_code: 200,
      email_corrections: [world.addresses.known],
    });
    // gmail.com does not exist in the test world (NXDOMAIN), so the fix of a gmail typo is withheld.
    const res = await check(t, withFixes, 'jonathan.smith@gmail.cmo');
    expect(res).toMatchObject({ status: 'invalid', status_code: 200 });
    expect(res).not.toHaveProperty('email_corrections');
    // A known misspelling of a big provider's domain is a typo first (505, never trap), and its
    // fix is withheld for the same reason (test/http/typo-first.test.ts has the rest).
    const typo = await check(t, withFixes, 'jonathan.smith@gmial.com');
    expect(typo).toMatchObject({ status: 'invalid', status_code: 505, domain_type: 'disposable' });
    expect(typo).not.toHaveProperty('email_corrections');
  });
});

describe('engagement score', () => {
  it('comes from activity data, only for deliverable statuses, never in the legacy variant', async () => {
    const today = new Date().toISOString().slice(0, 10);
    await t.storage.activity.add(
      prepareActivity([
        { email: world.addresses.known, source: 'news', seenOn: today, event: 'open' },
        { email: world.addresses.known, source: 'shop', seenOn: today, event: 'seen' },
        { email: world.addresses.unknown, source: 'news', seenOn: today, event: 'seen' },
      ]),
    );
    const withScore = await check(t, current, world.addresses.known);
    expect(withScore).toMatchObject({ status: 'safetosend', status_code: 50, engagement_score: { score: expect.any(Number) } });
    const score = (withScore.engagement_score as { score: number }).score;
    expect(score).toBeGreaterThanOrEqual(0);
    expect(score).toBeLessThanOrEqual(10);
    expect(await check(t, current, world.addresses.unknown)).not.toHaveProperty('engagement_score');
    expect(await check(t, legacy, world.addresses.known)).not.toHaveProperty('engagement_score');
    // Catch-all is deliverable too; an address never seen gets no score (nothing is invented).
    expect(await check(t, current, `someone@${world.domains.acceptAll}`)).not.toHaveProperty('engagement_score');
  });
});
