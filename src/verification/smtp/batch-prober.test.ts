/**
 * The batching prober against the test world's SMTP servers and scripted ones, over real
 * loopback sockets: shared sessions, the per-host limit (plain and STARTTLS), every probe's
 * outcome as a session of its own would give it, and failures kept to the probes they touch.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closeScripted, scripted } from '../../../test/helpers/scripted-smtp.js';
import { openConnections } from '../../../test/helpers/world/open-connections.js';
import { startTestWorld, type TestWorld } from '../../../test/helpers/world/index.js';
import { createBatchingProber, type BatchingProberOptions } from './batch-prober.js';
import { createSmtpProber, type ProbeOutcome, type ProbeTarget } from './prober.js';
import { until } from '../../../test/helpers/until.js';

let world: TestWorld;

beforeAll(async () => {
  world = await startTestWorld();
});
afterAll(() => world.close());
beforeEach(() => world.reset());
afterEach(async () => {
  await closeScripted();
  // Sessions linger idle for a moment after their last probe is answered: let them QUIT, so the
  // next test's counts start at zero.
  await until(() => Object.values(world.smtp).every((log) => log.active === 0));
});

const identity = { helo: 'probe.mailsure.com', from: 'verify@mailsure.com' };
const batching = (extra: Partial<BatchingProberOptions> = {}) => createBatchingProber({ port: world.smtpPort, ...identity, ...extra });
const soon = (ms = 10_000) => Date.now() + ms;
const target = (name: keyof TestWorld['smtp']): ProbeTarget => ({ host: `mx-${String(name)}.world`, addresses: [world.smtpAddress(name)] });

/** Each outcome as `kind` and its replies' classes (what verdicts are made of). */
function summary(outcome: ProbeOutcome): unknown {
  if (outcome.kind !== 'replies')
    return { kind: outcome.kind, partial: [...(outcome.partial ?? new Map())].map(([r, reply]) => [r, reply.class, reply.code]) };
  return {
    kind: outcome.kind,
    tls: outcome.tls,
    replies: [...outcome.replies].map(([r, reply]) => [r, reply.class, reply.code, reply.stage]),
  };
}

/** Probes as the mailbox stage makes them: the address, and a random local part at its domain. */
function probesFor(domains: string[], perDomain: number): string[][] {
  const { known, knownToo } = world.addresses;
  const probes: string[][] = [];
  for (let i = 0; i < perDomain; i++) {
    for (const domain of domains) {
      const address =
        i === 0 && domain === known.split('@')[1] ? known : i === 1 && domain === knownToo.split('@')[1] ? knownToo : `user${i}@${domain}`;
      probes.push(i % 3 === 0 ? [address, `zz${i}random@${domain}`] : [address]);
    }
  }
  return probes;
}

describe('batching SMTP prober', () => {
  it('answers every probe as a session of its own would, over a few shared sessions', async () => {
    const domains = ['mailbox-ok.com', 'other-one.com', 'other-two.net', 'other-three.org'];
    const probes = probesFor(domains, 10);
    const alone = createSmtpProber({ port: world.smtpPort, ...identity, maxSessionsPerHost: 2 });
    const expected = [];
    for (const recipients of probes) expected.push(summary(await alone.probe(target('mailboxes'), recipients, soon())));
    const solo = world.smtp.mailboxes.sessions.length;
    expect(solo).toBe(probes.length);

    world.reset();
    const prober = batching();
    const outcomes = await Promise.all(probes.map((recipients) => prober.probe(target('mailboxes'), recipients, soon())));
    expect(outcomes.map(summary)).toEqual(expected);
    // A per-recipient 5xx is that recipient's alone: the known ones in the same transactions are accepted.
    expect(outcomes[0]).toMatchObject({
      kind: 'replies',
      replies: new Map([
        [world.addresses.known, expect.objectContaining({ class: 'accepted' })],
        [expect.any(String), expect.anything()],
      ]),
    });

    const log = world.smtp.mailboxes;
    expect(log.sessions.length).toBeLessThanOrEqual(2);
    expect(log.maxActive).toBeLessThanOrEqual(2);
    const rcpts = log.sessions.flatMap((session) => session.rcpts);
    expect(rcpts).toHaveLength(probes.flat().length);
    // One domain per transaction: as many MAIL FROMs as (session, domain) runs of RCPTs.
    for (const session of log.sessions) {
      const runs = session.rcpts.map((rcpt) => rcpt.address.split('@')[1]).filter((domain, i, all) => i === 0 || all[i - 1] !== domain);
      expect(session.mailFrom.length).toBeGreaterThanOrEqual(runs.length);
      expect(session.mailFrom.length).toBeLessThanOrEqual(session.rcpts.length);
    }
  });

  it('with transactionPerDomain off, one MAIL FROM carries every domain of a round', async () => {
    const prober = batching({ transactionPerDomain: false, maxSessionsPerHost: 1 });
    const probes = ['a@one.com', 'b@two.com', 'c@three.com'].map((address) => [address]);
    const outcomes = await Promise.all(probes.map((recipients) => prober.probe(target('acceptAll'), recipients, soon())));
    expect(outcomes.every((outcome) => outcome.kind === 'replies')).toBe(true);
    expect(world.smtp.acceptAll.sessions).toHaveLength(1);
    expect(world.smtp.acceptAll.sessions[0]!.mailFrom).toHaveLength(1);
  });

  for (const name of ['acceptAll', 'starttls'] as const) {
    it(`never more open sessions per host than the limit, and every one closed (${name === 'starttls' ? 'STARTTLS' : 'plain'})`, async () => {
      const prober = batching({ rcptsPerSession: 10, maxSessionsPerHost: 2 });
      const outcomes = await Promise.all(
        Array.from({ length: 300 }, (_, i) => prober.probe(target(name), [`user${i}@${world.domains.acceptAll}`], soon(20_000))),
      );
      expect(outcomes.every((outcome) => outcome.kind === 'replies' && outcome.tls === (name === 'starttls'))).toBe(true);
      const log = world.smtp[name];
      expect(log.connections).toBeGreaterThanOrEqual(30); // 10 RCPTs a session at most
      expect(log.sessions.every((session) => session.rcpts.length <= 10)).toBe(true);
      expect(log.maxActive).toBeLessThanOrEqual(2);
      await until(() => log.active === 0);
      await until(async () => ((await openConnections(world.smtpAddress(name), world.smtpPort)) ?? 0) === 0);
    });
  }

  it("each host's own limits (its provider profile's): sessions at once and RCPTs per session", async () => {
    // Two hosts on the same server, one allowed a single session of 5 RCPTs, the other 3 of 20.
    const narrow: ProbeTarget = { host: 'narrow.world', addresses: [world.smtpAddress('acceptAll')] };
    const wide: ProbeTarget = { host: 'wide.world', addresses: [world.smtpAddress('starttls')] };
    const prober = batching({
      sessionPlace: ({ host }) => ({
        key: host,
        limits: host === 'narrow.world' ? { maxSessionsPerHost: 1, rcptsPerSession: 5 } : { maxSessionsPerHost: 3, rcptsPerSession: 20 },
      }),
    });
    const outcomes = await Promise.all([
      ...Array.from({ length: 60 }, (_, i) => prober.probe(narrow, [`n${i}@${world.domains.acceptAll}`], soon(20_000))),
      ...Array.from({ length: 300 }, (_, i) => prober.probe(wide, [`w${i}@${world.domains.acceptAll}`], soon(20_000))),
    ]);
    expect(outcomes.every((outcome) => outcome.kind === 'replies')).toBe(true);
    expect(world.smtp.acceptAll.maxActive).toBe(1);
    expect(world.smtp.acceptAll.sessions.every((session) => session.rcpts.length <= 5)).toBe(true);
    expect(world.smtp.acceptAll.sessions.length).toBeGreaterThanOrEqual(12);
    expect(world.smtp.starttls.maxActive).toBeLessThanOrEqual(3);
    expect(world.smtp.starttls.sessions.every((session) => session.rcpts.length <= 20)).toBe(true);
    expect(world.smtp.starttls.sessions.length).toBeGreaterThanOrEqual(15);
  });

  it("customers' MX names at one provider address share its sessions and its session limit", async () => {
    // Three tenants' own MX names, one provider address (as Microsoft 365's tenants resolve to EOP's).
    const tenants = ['a', 'b', 'c'].map((t): ProbeTarget => ({
      host: `${t}-firm.mail.protection.world`,
      addresses: [world.smtpAddress('acceptAll')],
    }));
    const prober = batching({
      sessionPlace: ({ addresses }) => ({
        key: `provider@${addresses.join(',')}`,
        limits: { maxSessionsPerHost: 1, rcptsPerSession: 100 },
      }),
    });
    const outcomes = await Promise.all(
      Array.from({ length: 90 }, (_, i) => prober.probe(tenants[i % 3]!, [`user${i}@${['a', 'b', 'c'][i % 3]}-firm.com`], soon(20_000))),
    );
    expect(outcomes.every((outcome) => outcome.kind === 'replies')).toBe(true);
    const log = world.smtp.acceptAll;
    expect(log.maxActive).toBe(1);
    // One session per 100 RCPTs at most, each asking several tenants (a transaction per domain).
    expect(log.sessions.length).toBeLessThanOrEqual(3);
    expect(log.sessions.some((session) => new Set(session.rcpts.map((r) => r.address.split('@')[1])).size === 3)).toBe(true);
  });

  it('the limit is the limiter’s: probes through both probers share it', async () => {
    const { createHostLimiter } = await import('./host-limiter.js');
    const limiter = createHostLimiter(2);
    const plain = createSmtpProber({ port: world.smtpPort, ...identity, limiter });
    const batched = batching({ limiter });
    await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => plain.probe(target('starttls'), [`solo${i}@x.com`], soon())),
      ...Array.from({ length: 100 }, (_, i) => batched.probe(target('starttls'), [`many${i}@x.com`], soon())),
    ]);
    expect(world.smtp.starttls.maxActive).toBe(2);
  });

  it('greylisting and temporary replies stay temporary, for the recipient that got them', async () => {
    const prober = batching();
    const [grey, temp] = await Promise.all([
      prober.probe(target('greylist'), [world.addresses.greylistKnown], soon()),
      prober.probe(target('tempfail'), ['a@tempfail.org'], soon()),
    ]);
    expect(summary(grey)).toMatchObject({ replies: [[world.addresses.greylistKnown, 'temporary', 450, 'rcpt']] });
    expect(summary(temp)).toMatchObject({ replies: [['a@tempfail.org', 'temporary', 451, 'rcpt']] });
  });

  it('a refusing host: every probe refused, in a few connection attempts', async () => {
    const prober = batching();
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => prober.probe(target('refuse'), [`u${i}@refused.net`], soon())));
    expect(outcomes.every((outcome) => outcome.kind === 'refused')).toBe(true);
  });

  it('a tarpit: each probe times out at its own deadline, none invalid', async () => {
    const prober = batching();
    const started = Date.now();
    const outcomes = await Promise.all([
      prober.probe(target('tarpit'), ['a@tarpit.org'], started + 300),
      prober.probe(target('tarpit'), ['b@tarpit.org'], started + 600),
    ]);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['timeout', 'timeout']);
  });

  it('a session that breaks fails only the transaction it broke in; the probes not yet asked get another session', async () => {
    let transactions = 0;
    const server = await scripted((command, reply, socket) => {
      if (/^MAIL/i.test(command)) {
        // The second transaction of the first connection: the server hangs up.
        if (++transactions === 2) return void socket.destroy();
        return reply('250 ok');
      }
      if (/^RSET/i.test(command)) return reply('250 ok');
      if (/^RCPT TO:<(.*)>/i.test(command)) reply(command.includes('<known') ? '250 ok' : '550 5.1.1 no such user');
    });
    const prober = createBatchingProber({ port: server.port, ...identity, maxSessionsPerHost: 1 });
    const host = { host: 'mx.scripted.test', addresses: ['127.0.0.1'] };
    const outcomes = await Promise.all([
      prober.probe(host, ['known@one.com', 'nobody@one.com'], soon()),
      prober.probe(host, ['known@two.com'], soon()),
      prober.probe(host, ['nobody@three.com'], soon()),
    ]);
    expect(summary(outcomes[0]!)).toEqual({
      kind: 'replies',
      tls: false,
      replies: [
        ['known@one.com', 'accepted', 250, 'rcpt'],
        ['nobody@one.com', 'no-mailbox', 550, 'rcpt'],
      ],
    });
    // The hang-up reached the second transaction only: not invalid, an error of the session.
    expect(outcomes[1]).toMatchObject({ kind: 'protocol-error' });
    expect(summary(outcomes[2]!)).toEqual({ kind: 'replies', tls: false, replies: [['nobody@three.com', 'no-mailbox', 550, 'rcpt']] });
    expect(server.connections()).toBe(2);
  });

  it('a MAIL FROM refused mid-session answers its own transaction; the others are asked in a new session', async () => {
    let mails = 0;
    const server = await scripted((command, reply) => {
      if (/^MAIL/i.test(command)) return reply(++mails === 2 ? '421 4.7.0 too many messages in this session' : '250 ok');
      if (/^RSET/i.test(command)) return reply('250 ok');
      reply('250 ok');
    });
    const prober = createBatchingProber({ port: server.port, ...identity, maxSessionsPerHost: 1 });
    const host = { host: 'mx.scripted.test', addresses: ['127.0.0.1'] };
    const outcomes = await Promise.all(['a@one.com', 'b@two.com', 'c@three.com'].map((address) => prober.probe(host, [address], soon())));
    expect(outcomes.map(summary)).toEqual([
      { kind: 'replies', tls: false, replies: [['a@one.com', 'accepted', 250, 'rcpt']] },
      { kind: 'replies', tls: false, replies: [['b@two.com', 'temporary', 421, 'mail']] },
      { kind: 'replies', tls: false, replies: [['c@three.com', 'accepted', 250, 'rcpt']] },
    ]);
    expect(server.connections()).toBe(2);
  });

  it('tells the health observer that the way out works at every round of a session, not only at connecting', async () => {
    const connections: boolean[] = [];
    const prober = batching({
      maxSessionsPerHost: 1,
      observer: { connection: (_h, _a, connected) => connections.push(connected), refusal: () => undefined, egressFailed: () => undefined },
    });
    // One after the other: each next probe is made as the last is answered, so the open session takes it.
    for (const address of ['a@one.com', 'b@two.com', 'c@three.com'])
      expect((await prober.probe(target('acceptAll'), [address], soon())).kind).toBe('replies');
    expect(world.smtp.acceptAll.connections).toBe(1);
    expect(connections).toEqual([true, true, true]);
  });

  it('rejects limits that are not positive integers', () => {
    expect(() => batching({ rcptsPerSession: 0 })).toThrow(/rcptsPerSession/);
    expect(() => batching({ maxSessionsPerHost: 1.5 })).toThrow(/maxSessionsPerHost/);
    const perHost = batching({ sessionPlace: ({ host }) => ({ key: host, limits: { rcptsPerSession: -1 } }) });
    expect(() => perHost.probe(target('acceptAll'), ['a@b.com'], soon())).toThrow(/rcptsPerSession must be a positive integer, got -1/);
  });
});
