/**
 * A list at depth mailbox against the test world: its probes share SMTP sessions per MX host
 * (batching prober), and every address still gets the verdict a real-time call gives it — the
 * real-time route probes with a session of its own, as lists did before they batched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { runList, validationCodes } from '../helpers/lists.js';
import { startTestWorld, type TestWorld } from '../helpers/world/index.js';

let world: TestWorld;
let t: TestApp;
let key: string;

beforeAll(async () => {
  world = await startTestWorld();
  t = await makeTestApp({ env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'mailbox' } });
  key = (await t.key('lists', { services: 'verification,lists', variant: 'email_validation' })).key;
});
afterAll(async () => {
  await t.close();
  await world.close();
});

/** Every SMTP behaviour of the world that answers within a list's time budget, and some DNS shapes. */
function addresses(): string[] {
  const { domains: d, addresses: a } = world;
  const many = (domain: string, count: number) => Array.from({ length: count }, (_, i) => `user${i}@${domain}`);
  return [
    a.known,
    a.knownToo,
    a.unknown,
    ...many(d.mailboxOk, 60),
    a.full452,
    a.full552,
    ...many(d.acceptAll, 10),
    `alice@${d.tempfail}`,
    a.greylistKnown,
    a.greylistUnknown,
    `alice@${d.policyBlock}`,
    `alice@${d.refused}`,
    a.slowBannerKnown,
    a.starttlsKnown,
    ...many(d.starttls, 30),
    `alice@${d.bannerReject}`,
    a.asciiOnlyUtf8,
    a.utf8Known,
    `alice@${d.hostile}`,
    `alice@${d.yahooHosted}`,
    a.aOnlyKnown,
    `alice@${d.nullMx}`,
    `alice@${d.nxdomain}`,
    a.multiMxKnown,
    // Not the multi-address domain: with refused.net and multi-mx.com, a third operator refusing
    // connections at the list's start trips the egress breaker (prober health) for everything
    // probed meanwhile, with one session per probe or shared sessions alike.
    a.idnKnown,
  ];
}

describe('a list at depth mailbox', () => {
  it('shares SMTP sessions within the per-host limit, with the verdicts of real-time calls', async () => {
    const emails = addresses();
    const listed = validationCodes((await runList(t, key, emails, { header: true })).rows);
    expect(listed.size).toBe(emails.length);

    const seen = { mailboxes: sessions('mailboxes'), starttls: sessions('starttls'), acceptAll: sessions('acceptAll') };
    // The limit is per MX host name: these servers are each the MX of one name (`mailboxes` also
    // answers for A-only, IDN and multi-MX domains, a limit each).
    for (const name of ['starttls', 'acceptAll', 'greylist', 'tempfail'] as const)
      expect(world.smtp[name].maxActive).toBeLessThanOrEqual(2);
    // Sessions carried several addresses: fewer sessions than addresses at a host.
    expect(seen.mailboxes.count).toBeLessThan(63);
    expect(seen.mailboxes.busiest).toBeGreaterThan(1);
    expect(seen.starttls.count).toBeLessThan(31);
    expect(seen.starttls.busiest).toBeGreaterThan(1);
    expect(world.smtp.starttls.sessions.every((session) => session.tls)).toBe(true);

    // The same addresses one by one through /v5/ev (a session each): the same codes.
    const realTime = new Map<string, number>();
    for (const email of emails) {
      const res = await t.app.inject({ url: `/v5/ev?email=${encodeURIComponent(email)}&api_key=${key}` });
      realTime.set(email, (res.json() as { email_validation: { status_code: number } }).email_validation.status_code);
    }
    expect(Object.fromEntries(listed)).toEqual(Object.fromEntries(realTime));
    // And the codes are the ones each behaviour stands for (a few, as a check on the check).
    expect(listed.get(world.addresses.known)).toBe(50);
    expect(listed.get(world.addresses.unknown)).toBe(400);
    expect(listed.get(`user0@${world.domains.acceptAll}`)).toBe(45);
    expect(listed.get(`alice@${world.domains.tempfail}`)).toBe(20);
    expect(listed.get(world.addresses.greylistKnown)).toBe(50);
    expect(listed.get(`alice@${world.domains.refused}`)).toBe(420);
  });
});

function sessions(name: keyof TestWorld['smtp']): { count: number; busiest: number } {
  const log = world.smtp[name].sessions;
  return { count: log.length, busiest: Math.max(0, ...log.map((session) => session.rcpts.length)) };
}
