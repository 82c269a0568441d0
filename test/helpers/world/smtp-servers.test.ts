/** Each SMTP behaviour of the world, proven with a bare line client over real sockets. */
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestWorld, type TestWorld } from './index.js';
import { rawConnect, type RawSmtp } from './raw-smtp.js';

let world: TestWorld;
const open: RawSmtp[] = [];

beforeAll(async () => {
  world = await startTestWorld();
});
afterAll(() => world.close());
beforeEach(() => world.reset());
afterEach(async () => {
  open.splice(0).forEach((client) => client.close());
  // Let the servers see the closes, so the next test's connection counts start at zero.
  for (let i = 0; i < 40 && Object.values(world.smtp).some((log) => log.active > 0); i++) await sleep(5);
});

async function session(server: keyof TestWorld['smtp'], helo = 'probe.mailsure.com'): Promise<RawSmtp> {
  const client = await rawConnect(world.smtpAddress(server), world.smtpPort);
  open.push(client);
  const banner = await client.reply();
  expect(banner[0]).toMatch(/^220 /);
  await client.send(`EHLO ${helo}`);
  expect(await client.send('MAIL FROM:<verify@mailsure.com>')).toEqual(['250 Accepted']);
  return client;
}

describe('test world SMTP', () => {
  it('exposes its coordinates as the product’s environment', () => {
    expect(world.env).toEqual({
      MAILSURE_DNS_SERVERS: world.dnsServer,
      MAILSURE_SMTP_PORT: String(world.smtpPort),
      MAILSURE_ALLOW_PRIVATE_TARGETS: '1',
      MAILSURE_CANARY_DOMAINS: 'canary-mail.com',
      // The simulators are asked far faster than a real provider allows (docs/verification.md, "Throttling").
      MAILSURE_SMTP_THROTTLE: 'off',
      // Every call probes: tests count RCPTs per call (test/http/verdict-memory.test.ts turns it on).
      MAILSURE_VERDICT_MEMORY: 'off',
    });
    expect(world.dnsServer).toMatch(/^127\.0\.0\.2:\d+$/);
  });

  it('mailboxes: known 250, unknown 550 5.1.1; no STARTTLS advertised, SMTPUTF8 is', async () => {
    const client = await rawConnect(world.smtpAddress('mailboxes'), world.smtpPort);
    open.push(client);
    expect((await client.reply())[0]).toMatch(/^220 mx-mailboxes\.world ESMTP/);
    const ehlo = await client.send('EHLO probe.mailsure.com');
    expect(ehlo.join('\n')).not.toMatch(/STARTTLS/);
    expect(ehlo.join('\n')).toMatch(/SMTPUTF8/);
    expect(ehlo.join('\n')).not.toMatch(/AUTH/);
    expect(await client.send('STARTTLS')).toEqual([expect.stringMatching(/^50[02] /)]);
    await client.send('MAIL FROM:<verify@mailsure.com>');
    expect(await client.send(`RCPT TO:<${world.addresses.known}>`)).toEqual(['250 Accepted']);
    expect(await client.send(`RCPT TO:<${world.addresses.unknown}>`)).toEqual(['550 5.1.1 user unknown']);
    expect(await client.send('RSET')).toEqual([expect.stringMatching(/^250 /)]);
    await client.send('MAIL FROM:<verify@mailsure.com>');
    expect(await client.send(`RCPT TO:<${world.addresses.knownToo.toUpperCase()}>`)).toEqual(['250 Accepted']);
    expect(await client.send('QUIT')).toEqual([expect.stringMatching(/^221 /)]);

    const log = world.smtp.mailboxes;
    expect(log.connections).toBe(1);
    expect(log.sessions).toHaveLength(1);
    expect(log.sessions[0]).toMatchObject({
      helo: 'probe.mailsure.com',
      openingCommand: 'EHLO',
      tls: false,
      mailFrom: [
        { address: 'verify@mailsure.com', smtputf8: false },
        { address: 'verify@mailsure.com', smtputf8: false },
      ],
      rcpts: [
        { address: world.addresses.known, code: 250 },
        { address: world.addresses.unknown, code: 550 },
        { address: world.addresses.knownToo.toUpperCase(), code: 250 },
      ],
    });
  });

  it('mailboxes: UTF-8 local part with SMTPUTF8', async () => {
    const client = await rawConnect(world.smtpAddress('mailboxes'), world.smtpPort);
    open.push(client);
    await client.reply();
    await client.send('EHLO probe.mailsure.com');
    expect(await client.send('MAIL FROM:<verify@mailsure.com> SMTPUTF8')).toEqual(['250 Accepted']);
    expect(await client.send(`RCPT TO:<${world.addresses.utf8Known}>`)).toEqual(['250 Accepted']);
    expect(world.smtp.mailboxes.sessions[0]?.mailFrom[0]?.smtputf8).toBe(true);
  });

  it('smtputf8: false hides the extension', async () => {
    const client = await rawConnect(world.smtpAddress('asciiOnly'), world.smtpPort);
    open.push(client);
    await client.reply();
    expect((await client.send('EHLO probe.mailsure.com')).join('\n')).not.toMatch(/SMTPUTF8/);
  });

  it('mailbox-full: 452 4.2.2 and 552 5.2.2 variants', async () => {
    const client = await session('mailboxFull');
    expect(await client.send(`RCPT TO:<${world.addresses.full452}>`)).toEqual(['452 4.2.2 mailbox full']);
    expect(await client.send(`RCPT TO:<${world.addresses.full552}>`)).toEqual(['552 5.2.2 mailbox full']);
    expect(await client.send(`RCPT TO:<${world.addresses.fullDomainKnown}>`)).toEqual(['250 Accepted']);
    expect(await client.send(`RCPT TO:<x@${world.domains.mailboxFull}>`)).toEqual(['550 5.1.1 user unknown']);
  });

  it('accept-all: any recipient 250', async () => {
    const client = await session('acceptAll');
    expect(await client.send(`RCPT TO:<qz7x-random@${world.domains.acceptAll}>`)).toEqual(['250 Accepted']);
  });

  it('tempfail: every RCPT 451 4.3.0', async () => {
    const client = await session('tempfail');
    expect(await client.send(`RCPT TO:<a@${world.domains.tempfail}>`)).toEqual(['451 4.3.0 temporary failure, try again later']);
  });

  it('greylist: first attempt 450 4.7.1, a retry after the delay is judged', async () => {
    const client = await session('greylist');
    const greylisted = ['450 4.7.1 greylisted, try again later'];
    expect(await client.send(`RCPT TO:<${world.addresses.greylistKnown}>`)).toEqual(greylisted);
    expect(await client.send(`RCPT TO:<${world.addresses.greylistUnknown}>`)).toEqual(greylisted);
    expect(await client.send(`RCPT TO:<${world.addresses.greylistKnown}>`)).toEqual(greylisted); // too soon
    await sleep(320);
    expect(await client.send(`RCPT TO:<${world.addresses.greylistKnown}>`)).toEqual(['250 Accepted']);
    expect(await client.send(`RCPT TO:<${world.addresses.greylistUnknown}>`)).toEqual(['550 5.1.1 user unknown']);
    world.reset();
    expect(await client.send(`RCPT TO:<${world.addresses.greylistKnown}>`)).toEqual(greylisted); // memory cleared
  });

  it('policy-block: every RCPT 550 5.7.1', async () => {
    const client = await session('policyBlock');
    expect(await client.send(`RCPT TO:<a@${world.domains.policyBlock}>`)).toEqual(['550 5.7.1 blocked by policy']);
  });

  it('refuse: connection refused on the shared port', async () => {
    const code = await new Promise<string | undefined>((resolve) => {
      const socket = connect({ host: world.smtpAddress('refuse'), port: world.smtpPort });
      socket.once('connect', () => resolve('connected'));
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code));
    });
    expect(code).toBe('ECONNREFUSED');
  });

  it('tarpit: accepts the connection and says nothing', async () => {
    const client = await rawConnect(world.smtpAddress('tarpit'), world.smtpPort);
    open.push(client);
    await expect(client.reply(300)).rejects.toThrow(/no reply/);
    expect(world.smtp.tarpit.connections).toBe(1);
    expect(world.smtp.tarpit.active).toBe(1);
    client.close();
  });

  it('slow-banner: the banner comes after the delay', async () => {
    const started = Date.now();
    const client = await rawConnect(world.smtpAddress('slowBanner'), world.smtpPort);
    open.push(client);
    expect((await client.reply(3000))[0]).toMatch(/^220 /);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('starttls: advertised, upgrades with a self-signed certificate, logged as TLS', async () => {
    const client = await rawConnect(world.smtpAddress('starttls'), world.smtpPort);
    open.push(client);
    await client.reply();
    expect((await client.send('EHLO probe.mailsure.com')).join('\n')).toMatch(/STARTTLS/);
    expect(await client.send('STARTTLS')).toEqual([expect.stringMatching(/^220 /)]);
    await client.startTls();
    expect((await client.send('EHLO probe.mailsure.com')).join('\n')).not.toMatch(/STARTTLS/);
    await client.send('MAIL FROM:<verify@mailsure.com>');
    expect(await client.send(`RCPT TO:<${world.addresses.starttlsKnown}>`)).toEqual(['250 Accepted']);
    expect(world.smtp.starttls.sessions[0]?.tls).toBe(true);
    expect(world.smtp.starttls.active).toBe(1);
    expect(await client.send('QUIT')).toEqual([expect.stringMatching(/^221 /)]);
    // The session's end is counted after STARTTLS too (smtp-server swaps the socket under it).
    for (let i = 0; i < 200 && world.smtp.starttls.active > 0; i++) await sleep(10);
    expect(world.smtp.starttls.active).toBe(0);
  });

  it('banner-reject: 554 instead of a banner, then closes', async () => {
    const client = await rawConnect(world.smtpAddress('bannerReject'), world.smtpPort);
    open.push(client);
    expect(await client.reply()).toEqual(['554 no SMTP service here']);
    await expect(client.reply(1000)).rejects.toThrow(/closed/);
  });

  it('huge-reply: answers EHLO with megabytes of continuation lines', async () => {
    const client = await rawConnect(world.smtpAddress('hostile'), world.smtpPort);
    open.push(client);
    await client.reply();
    const received = await new Promise<number>((resolve) => {
      let total = 0;
      client.socket.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > 1024 * 1024) {
          client.close();
          resolve(total);
        }
      });
      client.socket.write('EHLO probe.mailsure.com\r\n');
    });
    expect(received).toBeGreaterThan(1024 * 1024);
  });

  it('counts simultaneous connections', async () => {
    const clients = await Promise.all([1, 2, 3].map(() => rawConnect(world.smtpAddress('acceptAll'), world.smtpPort)));
    open.push(...clients);
    await Promise.all(clients.map((client) => client.reply()));
    expect(world.smtp.acceptAll.maxActive).toBe(3);
    clients.forEach((client) => client.close());
    await sleep(50);
    expect(world.smtp.acceptAll.active).toBe(0);
    expect(world.smtp.acceptAll.connections).toBe(3);
  });
});

describe('test world lifecycle', () => {
  it('two worlds side by side get different ports; close frees them', async () => {
    const other = await startTestWorld();
    expect(other.smtpPort).not.toBe(world.smtpPort);
    const address = other.smtpAddress('mailboxes');
    await other.close();
    const code = await new Promise<string | undefined>((resolve) => {
      const socket = connect({ host: address, port: other.smtpPort });
      socket.once('connect', () => resolve('connected'));
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code));
    });
    expect(code).toBe('ECONNREFUSED');
  });

  it('refuses a server address outside loopback', async () => {
    await expect(
      startTestWorld({ zone: {}, domains: {}, addresses: {}, smtp: { bad: { address: '10.0.0.1', behaviour: 'accept-all' } } }),
    ).rejects.toThrow(/not a loopback/);
  });
});
