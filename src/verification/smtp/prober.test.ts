/** The prober against the test world's SMTP servers, over real loopback sockets. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestWorld, type TestWorld } from '../../../test/helpers/world/index.js';
import { createSmtpProber, type ProbeOutcome, type SmtpProber } from './prober.js';
import { runSmtpSession } from './smtp-session.js';
import { openConnections } from '../../../test/helpers/world/open-connections.js';
import { until } from '../../../test/helpers/until.js';

let world: TestWorld;
let prober: SmtpProber;

beforeAll(async () => {
  world = await startTestWorld();
  prober = createSmtpProber({ port: world.smtpPort, helo: 'probe.mailsure.com', from: 'verify@mailsure.com' });
});
afterAll(() => world.close());
beforeEach(() => world.reset());

const soon = (ms = 3000) => Date.now() + ms;
const target = (name: keyof TestWorld['smtp'], host = `mx-${String(name)}.world`) => ({ host, addresses: [world.smtpAddress(name)] });

function replies(outcome: ProbeOutcome) {
  if (outcome.kind !== 'replies') throw new Error(`expected replies, got ${outcome.kind}: ${outcome.detail}`);
  return outcome;
}

describe('SMTP prober against the test world', () => {
  it('known and unknown mailboxes in one session, one connection', async () => {
    const { known, knownToo, unknown } = world.addresses;
    const outcome = replies(await prober.probe(target('mailboxes'), [known, unknown, knownToo], soon()));
    expect(outcome.replies.get(known)).toMatchObject({ class: 'accepted', code: 250, stage: 'rcpt' });
    expect(outcome.replies.get(knownToo)).toMatchObject({ class: 'accepted', code: 250 });
    expect(outcome.replies.get(unknown)).toEqual({
      class: 'no-mailbox',
      greylisted: false,
      code: 550,
      enhanced: '5.1.1',
      text: 'user unknown',
      stage: 'rcpt',
    });
    expect(outcome).toMatchObject({ tls: false, smtputf8: true, address: world.smtpAddress('mailboxes') });

    const log = world.smtp.mailboxes;
    expect(log.connections).toBe(1);
    expect(log.sessions).toHaveLength(1);
    expect(log.sessions[0]).toMatchObject({
      helo: 'probe.mailsure.com',
      openingCommand: 'EHLO',
      mailFrom: [{ address: 'verify@mailsure.com', smtputf8: false }],
    });
    expect(log.sessions[0]!.rcpts.map((rcpt) => rcpt.address)).toEqual([known, unknown, knownToo]);
  });

  it('starts a new transaction (RSET, MAIL FROM) per batch, still one connection', async () => {
    const recipients = ['a', 'b', 'c', 'd', 'e'].map((local) => `${local}@${world.domains.acceptAll}`);
    const result = await runSmtpSession({
      address: world.smtpAddress('acceptAll'),
      port: world.smtpPort,
      helo: 'probe.mailsure.com',
      from: 'verify@mailsure.com',
      recipients,
      deadline: soon(),
      connectTimeoutMs: 1000,
      startTls: true,
      batchSize: 2,
    });
    expect(result.kind).toBe('replies');
    expect(world.smtp.acceptAll.connections).toBe(1);
    expect(world.smtp.acceptAll.sessions[0]!.mailFrom).toHaveLength(3);
    expect(world.smtp.acceptAll.sessions[0]!.rcpts.map((rcpt) => rcpt.address)).toEqual(recipients);
  });

  it('mailbox full: 452 4.2.2 and 552 5.2.2', async () => {
    const { full452, full552, fullDomainKnown } = world.addresses;
    const outcome = replies(await prober.probe(target('mailboxFull'), [full452, full552, fullDomainKnown], soon()));
    expect(outcome.replies.get(full452)).toMatchObject({ class: 'mailbox-full', code: 452, enhanced: '4.2.2' });
    expect(outcome.replies.get(full552)).toMatchObject({ class: 'mailbox-full', code: 552, enhanced: '5.2.2' });
    expect(outcome.replies.get(fullDomainKnown)).toMatchObject({ class: 'accepted' });
  });

  it('accept-all: a random local part is accepted', async () => {
    const random = `zq${Date.now()}@${world.domains.acceptAll}`;
    const outcome = replies(await prober.probe(target('acceptAll'), [random], soon()));
    expect(outcome.replies.get(random)?.class).toBe('accepted');
  });

  it('tempfail: temporary, not greylisted', async () => {
    const address = `a@${world.domains.tempfail}`;
    const outcome = replies(await prober.probe(target('tempfail'), [address], soon()));
    expect(outcome.replies.get(address)).toMatchObject({ class: 'temporary', greylisted: false, code: 451, enhanced: '4.3.0' });
  });

  it('greylist: temporary + greylisted hint, then accepted on a retry after the delay', async () => {
    const { greylistKnown, greylistUnknown } = world.addresses;
    const first = replies(await prober.probe(target('greylist'), [greylistKnown, greylistUnknown], soon()));
    expect(first.replies.get(greylistKnown)).toMatchObject({ class: 'temporary', greylisted: true, code: 450 });
    await new Promise((resolve) => setTimeout(resolve, 320));
    const retry = replies(await prober.probe(target('greylist'), [greylistKnown, greylistUnknown], soon()));
    expect(retry.replies.get(greylistKnown)?.class).toBe('accepted');
    expect(retry.replies.get(greylistUnknown)?.class).toBe('no-mailbox');
  });

  it('policy block: policy', async () => {
    const address = `a@${world.domains.policyBlock}`;
    const outcome = replies(await prober.probe(target('policyBlock'), [address], soon()));
    expect(outcome.replies.get(address)).toMatchObject({ class: 'policy', code: 550, enhanced: '5.7.1' });
  });

  it('refused: refused, quickly', async () => {
    const started = Date.now();
    const outcome = await prober.probe(target('refuse'), [world.addresses.known], soon());
    expect(outcome.kind).toBe('refused');
    // Answered by the refusal, not by the connect time-out (1 s here) or the deadline (3 s).
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('tries the next address when the first refuses', async () => {
    const outcome = replies(
      await prober.probe(
        { host: `mx.${world.domains.multiAddress}`, addresses: [world.smtpAddress('refuse'), world.smtpAddress('mailboxes')] },
        [world.addresses.multiAddressKnown],
        soon(),
      ),
    );
    expect(outcome.address).toBe(world.smtpAddress('mailboxes'));
    expect(outcome.replies.get(world.addresses.multiAddressKnown)?.class).toBe('accepted');
  });

  it('tarpit: timeout at the deadline', async () => {
    const started = Date.now();
    const outcome = await prober.probe(target('tarpit'), [world.addresses.known], Date.now() + 400);
    expect(outcome.kind).toBe('timeout');
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    // At its deadline, not the tarpit's: it never answers.
    await until(() => world.smtp.tarpit.active === 0); // we hung up
  });

  it('slow banner: timeout when the deadline comes first, replies when it does not', async () => {
    const started = Date.now();
    const early = await prober.probe(target('slowBanner'), [world.addresses.slowBannerKnown], Date.now() + 500);
    expect(early.kind).toBe('timeout');
    // At its deadline (0.5 s), before the banner (1 s) would have come.
    expect(Date.now() - started).toBeLessThan(1_000);
    const patient = replies(await prober.probe(target('slowBanner'), [world.addresses.slowBannerKnown], soon(3000)));
    expect(patient.replies.get(world.addresses.slowBannerKnown)?.class).toBe('accepted');
  });

  it('STARTTLS is used when offered', async () => {
    const outcome = replies(await prober.probe(target('starttls', 'mx.starttls.net'), [world.addresses.starttlsKnown], soon()));
    expect(outcome.tls).toBe(true);
    expect(outcome.replies.get(world.addresses.starttlsKnown)?.class).toBe('accepted');
    expect(world.smtp.starttls.sessions[0]).toMatchObject({ tls: true, helo: 'probe.mailsure.com' });
  });

  it('banner reject: banner-reject with the reply', async () => {
    const outcome = await prober.probe(target('bannerReject'), [world.addresses.known], soon());
    expect(outcome).toMatchObject({ kind: 'banner-reject', reply: { code: 554, text: 'no SMTP service here' } });
  });

  it('hostile huge reply: protocol-error, connection dropped', async () => {
    const outcome = await prober.probe(target('hostile'), [world.addresses.known], soon());
    expect(outcome.kind).toBe('protocol-error');
    if (outcome.kind === 'protocol-error') expect(outcome.detail).toMatch(/larger than|longer than|more replies/);
    await until(() => world.smtp.hostile.active === 0);
  });

  it('SMTPUTF8: sent with MAIL FROM when a recipient needs it and the server offers it', async () => {
    const outcome = replies(await prober.probe(target('mailboxes'), [world.addresses.utf8Known, world.addresses.known], soon()));
    expect(outcome.smtputf8).toBe(true);
    expect(outcome.replies.get(world.addresses.utf8Known)?.class).toBe('accepted');
    expect(world.smtp.mailboxes.sessions[0]!.mailFrom[0]!.smtputf8).toBe(true);
  });

  it('SMTPUTF8: a non-ASCII recipient is not sent to a server without it', async () => {
    const { asciiOnlyUtf8, asciiOnlyKnown } = world.addresses;
    const outcome = replies(await prober.probe(target('asciiOnly'), [asciiOnlyUtf8, asciiOnlyKnown], soon()));
    expect(outcome.smtputf8).toBe(false);
    expect(outcome.replies.get(asciiOnlyUtf8)).toMatchObject({ class: 'rejected-other', stage: 'local', code: 553, enhanced: '5.6.7' });
    expect(outcome.replies.get(asciiOnlyKnown)?.class).toBe('accepted');
    expect(world.smtp.asciiOnly.sessions[0]!.rcpts.map((rcpt) => rcpt.address)).toEqual([asciiOnlyKnown]);
  });

  it('never sends an address that could inject a command', async () => {
    const evil = `x@${world.domains.acceptAll}>\r\nRCPT TO:<y@${world.domains.acceptAll}`;
    const outcome = replies(await prober.probe(target('acceptAll'), [evil], soon()));
    expect(outcome.replies.get(evil)).toMatchObject({ stage: 'local', class: 'rejected-other' });
    expect(world.smtp.acceptAll.sessions[0]?.rcpts ?? []).toEqual([]);
  });

  it('holds the per-host limit: 10 concurrent probes, never more than 2 sessions at once', async () => {
    const limited = createSmtpProber({
      port: world.smtpPort,
      helo: 'probe.mailsure.com',
      from: 'verify@mailsure.com',
      maxSessionsPerHost: 2,
    });
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => limited.probe(target('acceptAll'), [`user${i}@${world.domains.acceptAll}`], soon(5000))),
    );
    expect(outcomes.every((outcome) => outcome.kind === 'replies')).toBe(true);
    expect(world.smtp.acceptAll.connections).toBe(10);
    expect(world.smtp.acceptAll.maxActive).toBe(2);

    // The measurement can see more when the limit allows it.
    world.reset();
    const loose = createSmtpProber({
      port: world.smtpPort,
      helo: 'probe.mailsure.com',
      from: 'verify@mailsure.com',
      maxSessionsPerHost: 10,
    });
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => loose.probe(target('acceptAll'), [`user${i}@${world.domains.acceptAll}`], soon(5000))),
    );
    expect(world.smtp.acceptAll.maxActive).toBeGreaterThan(2);
  });

  it('holds the per-host limit over STARTTLS too, and the server sees every session end', async () => {
    const limited = createSmtpProber({
      port: world.smtpPort,
      helo: 'probe.mailsure.com',
      from: 'verify@mailsure.com',
      maxSessionsPerHost: 2,
    });
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => limited.probe(target('starttls'), [`user${i}@${world.domains.starttls}`], soon(5000))),
    );
    expect(outcomes.every((outcome) => outcome.kind === 'replies' && outcome.tls)).toBe(true);
    expect(world.smtp.starttls.connections).toBe(10);
    expect(world.smtp.starttls.maxActive).toBe(2);
    await until(() => world.smtp.starttls.active === 0);
  });

  it('closes every connection after QUIT, STARTTLS or not (the kernel holds none open)', async () => {
    for (const name of ['starttls', 'acceptAll'] as const) {
      await Promise.all(
        Array.from({ length: 6 }, (_, i) => prober.probe(target(name), [`user${i}@${world.domains.acceptAll}`], soon(5000))),
      );
      const open = () => openConnections(world.smtpAddress(name), world.smtpPort);
      if ((await open()) === null) continue; // no /proc/net/tcp: nothing to read the truth from
      await until(async () => (await open()) === 0, `${name}'s connections closed`);
    }
  });

  it('limits per host, not globally: another host is not held up', async () => {
    const limited = createSmtpProber({
      port: world.smtpPort,
      helo: 'probe.mailsure.com',
      from: 'verify@mailsure.com',
      maxSessionsPerHost: 1,
    });
    const stuck = limited.probe(target('tarpit'), [world.addresses.known], Date.now() + 600);
    const other = replies(await limited.probe(target('mailboxes'), [world.addresses.known], soon()));
    expect(other.replies.get(world.addresses.known)?.class).toBe('accepted');
    expect((await stuck).kind).toBe('timeout');
  });

  it('waiting for a slot counts against the deadline', async () => {
    const limited = createSmtpProber({
      port: world.smtpPort,
      helo: 'probe.mailsure.com',
      from: 'verify@mailsure.com',
      maxSessionsPerHost: 1,
    });
    const started = Date.now();
    const [first, second] = await Promise.all([
      limited.probe(target('tarpit'), [world.addresses.known], started + 400),
      limited.probe(target('tarpit'), [world.addresses.known], started + 200),
    ]);
    expect(first.kind).toBe('timeout');
    expect(second).toMatchObject({ kind: 'timeout', detail: expect.stringMatching(/slot/) });
    expect(world.smtp.tarpit.connections).toBe(1);
  });
});
