/**
 * `mailsure doctor` as an operator runs it: every prober-health check against the test world,
 * a readable report (PASS/WARN/FAIL, evidence, fix) and an exit status that is non-zero only
 * when verdicts at the configured depth cannot be trusted.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { closedPort, startSilentListeners } from '../helpers/world/egress.js';
import { PROBER, startTestWorld, type TestWorld } from '../helpers/world/index.js';
import { startSocksProxy } from '../helpers/world/socks-proxy.js';

let world: TestWorld;
let env: Record<string, string>;

beforeAll(async () => {
  world = await startTestWorld();
  env = {
    ...world.env,
    MAILSURE_SMTP_HELO: PROBER.helo,
    MAILSURE_SMTP_EGRESS_IP: PROBER.egressIp,
    MAILSURE_DNSBL_ZONES: PROBER.cleanZone,
    MAILSURE_DATA_DIR: '/nonexistent/doctor-needs-no-data-dir',
  };
});
afterEach(() => world.reset());
afterAll(() => world.close());

describe('mailsure doctor', () => {
  it('passes every check in a healthy world and exits 0', async () => {
    const { status, stdout, stderr } = await runCliAsync(['doctor'], env);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toContain('Mailsure doctor (verification depth: mailbox)');
    expect(stdout).toContain('PASS  resolver: ok');
    expect(stdout).toContain('      canary canary-mail.com: MX mx.canary-mail.com');
    expect(stdout).toMatch(/ {6}random name mailsure-nx-[a-z0-9]{20}\.com: NXDOMAIN\n/);
    expect(stdout).toContain('PASS  SMTP egress: ok');
    expect(stdout).toContain(`      mx.canary-mail.com [127.0.0.23]:${world.smtpPort}: banner received`);
    expect(stdout).toContain('PASS  identity: ok');
    expect(stdout).toContain(`      forward-confirmed reverse DNS: 127.0.0.50 ⇄ ${PROBER.helo}`);
    expect(stdout).toContain(`      not listed on ${PROBER.cleanZone}`);
    expect(stdout).toContain(
      "      MAIL FROM is the null sender <>, as MTAs' own callouts send: no sender domain for a receiver to verify",
    );
    expect(stdout.trimEnd().endsWith('Mailbox verification: available')).toBe(true);
  });

  it('with several egresses, checks each one and names it by label: one dead proxy of two fails that egress alone', async () => {
    const dead = await startSocksProxy({ outboundAddress: '127.0.0.242', auth: { username: 'probe', password: 'hunter2' } });
    await dead.close();
    const live = await startSocksProxy({ outboundAddress: '127.0.0.243' });
    try {
      const { MAILSURE_SMTP_EGRESS_IP: _one, ...rest } = env;
      const { status, stdout } = await runCliAsync(['doctor'], {
        ...rest,
        MAILSURE_SMTP_EGRESS_IP: `egress-2=${PROBER.egressIp}`,
        MAILSURE_SMTP_PROXY: `${dead.url},${live.url}`,
      });
      expect(status).toBe(0);
      expect(stdout).toContain('PASS  SMTP egress: ok');
      expect(stdout).toContain('SMTP egresses: 1 of 2 healthy');
      expect(stdout).toMatch(/^FAIL {2}egress-1 \(socks5\): out of rotation: /m);
      expect(stdout).toContain('PASS  egress-2 (socks5): ok');
      expect(stdout).not.toContain('hunter2');
    } finally {
      await live.close();
    }
  });

  it('fails the resolver that says NXDOMAIN to everything, with the fix, and exits 1', async () => {
    world.dns.setMode({ kind: 'nxdomain' });
    const { status, stdout } = await runCliAsync(['doctor'], env);
    expect(status).toBe(1);
    expect(stdout).toContain('FAIL  resolver: failed');
    expect(stdout).toContain('      canary canary-mail.com: NXDOMAIN');
    expect(stdout).toContain('      fix: the resolver denies domains that exist; fix the resolver: set MAILSURE_DNS_SERVERS');
    expect(stdout).toContain('Mailbox verification: unavailable, the resolver cannot be trusted');
  });

  it('fails a hijacking resolver', async () => {
    world.dns.setMode({ kind: 'hijack', address: '127.0.0.99' });
    const { status, stdout } = await runCliAsync(['doctor'], env);
    expect(status).toBe(1);
    expect(stdout).toMatch(/random name mailsure-nx-[a-z0-9]+\.com: no MX, but an address record \(it must not exist\)/);
    expect(stdout).toContain('fix: the resolver answers names that do not exist (NXDOMAIN hijacking)');
  });

  it('fails a resolver that does not answer', async () => {
    const port = await closedPort(['127.0.0.2']);
    const { status, stdout } = await runCliAsync(['doctor'], { ...env, MAILSURE_DNS_SERVERS: `127.0.0.2:${port}` });
    expect(status).toBe(1);
    expect(stdout).toMatch(/canary canary-mail\.com: no answer \(E[A-Z]+\)/);
    expect(stdout).toContain('fix: the resolver does not answer');
  });

  it('fails a blocked port 25 at depth mailbox (exit 1) and only reports it at depth domain (exit 0)', async () => {
    const port = await closedPort(['127.0.0.23']);
    const blocked = { ...env, MAILSURE_SMTP_PORT: String(port) };
    const mailbox = await runCliAsync(['doctor'], blocked);
    expect(mailbox.status).toBe(1);
    expect(mailbox.stdout).toContain('FAIL  SMTP egress: failed');
    expect(mailbox.stdout).toContain(`      mx.canary-mail.com [127.0.0.23]:${port}: connection refused`);
    expect(mailbox.stdout).toContain(`      fix: outbound TCP port ${port} is blocked from this host`);
    expect(mailbox.stdout).toContain('Mailbox verification: unavailable, SMTP egress is blocked');

    const domain = await runCliAsync(['doctor'], { ...blocked, MAILSURE_VERIFY_DEPTH: 'domain' });
    expect(domain.status).toBe(0);
    expect(domain.stdout).toContain('FAIL  SMTP egress: failed');
    expect(domain.stdout.trimEnd().endsWith('Mailbox verification: off (MAILSURE_VERIFY_DEPTH=domain)')).toBe(true);
  });

  it('fails a filtered port 25 (connections held, no banner)', async () => {
    const silent = await startSilentListeners(['127.0.0.23']);
    try {
      const { status, stdout } = await runCliAsync(['doctor'], { ...env, MAILSURE_SMTP_PORT: String(silent.port) });
      expect(status).toBe(1);
      expect(stdout).toContain(
        `      mx.canary-mail.com [127.0.0.23]:${silent.port}: connected, but no banner came (filtered or intercepted)`,
      );
      expect(stdout).toContain('FAIL  SMTP egress: failed');
    } finally {
      await silent.close();
    }
  });

  it('reports an address on a block list and a HELO without DNS, without failing the run', async () => {
    const { status, stdout } = await runCliAsync(['doctor'], {
      ...env,
      MAILSURE_DNSBL_ZONES: PROBER.listingZone,
      MAILSURE_SMTP_HELO: 'nowhere.mailsure-test.com',
    });
    expect(status).toBe(0);
    expect(stdout).toContain('FAIL  identity: failed');
    expect(stdout).toContain(`      127.0.0.50 is listed on ${PROBER.listingZone} (127.0.0.2)`);
    expect(stdout).toContain('      HELO name nowhere.mailsure-test.com does not resolve');
    expect(stdout).toContain(`      PTR of 127.0.0.50 is ${PROBER.helo}, not the HELO name nowhere.mailsure-test.com`);
    expect(stdout).toContain(`      fix: 127.0.0.50 is on a block list`);
    expect(stdout).toContain('Mailbox verification: available (identity failed; see mailsure doctor)');
  });

  it('warns when the MAIL FROM domain has no MX or address (receivers that verify senders refuse it), with the fix, without failing the run', async () => {
    const { status, stdout } = await runCliAsync(['doctor'], { ...env, MAILSURE_SMTP_FROM: `verify@${world.domains.noMail}` });
    expect(status).toBe(0);
    expect(stdout).toContain('WARN  identity: degraded');
    expect(stdout).toContain(
      `      MAIL FROM domain ${world.domains.noMail} has no MX and no A record: receivers that verify senders will refuse it`,
    );
    expect(stdout).toContain(`      fix: receivers that verify senders refuse MAIL FROM <verify@${world.domains.noMail}>`);
    const good = await runCliAsync(['doctor'], { ...env, MAILSURE_SMTP_FROM: `verify@${world.domains.mailboxOk}` });
    expect(good.stdout).toContain(`      MAIL FROM domain ${world.domains.mailboxOk} has MX mx.${world.domains.mailboxOk}`);
    expect(good.stdout).toContain('PASS  identity: ok');
  });

  it('checks the egress through MAILSURE_SMTP_PROXY: passes through a working proxy', async () => {
    const proxy = await startSocksProxy();
    try {
      const { status, stdout } = await runCliAsync(['doctor'], { ...env, MAILSURE_SMTP_PROXY: proxy.url });
      expect(status).toBe(0);
      expect(stdout).toContain('PASS  SMTP egress: ok');
      expect(stdout).toContain(
        `      mx.canary-mail.com [127.0.0.23]:${world.smtpPort} via socks5://127.0.0.1:${proxy.port}: banner received`,
      );
      expect(proxy.requests).toMatchObject([{ destination: '127.0.0.23', port: world.smtpPort, reply: 'REQUEST_GRANTED' }]);
      expect(world.smtp.canary.sessions.map((s) => s.remoteAddress)).toEqual([proxy.outboundAddress]);
    } finally {
      await proxy.close();
    }
  });

  it('fails a proxy that is down (exit 1), with the fix, and reaches no MX host', async () => {
    const port = await closedPort(['127.0.0.1']);
    const { status, stdout } = await runCliAsync(['doctor'], { ...env, MAILSURE_SMTP_PROXY: `socks5://probe:hunter2@127.0.0.1:${port}` });
    expect(status).toBe(1);
    expect(stdout).toContain('FAIL  SMTP egress: failed');
    expect(stdout).toContain(
      `      mx.canary-mail.com [127.0.0.23]:${world.smtpPort} via socks5://probe@127.0.0.1:${port}: the proxy failed: socks5://probe@127.0.0.1:${port}: ECONNREFUSED`,
    );
    expect(stdout).toContain('      fix: the SMTP proxy (MAILSURE_SMTP_PROXY) is down or refuses the prober');
    expect(stdout).toContain('Mailbox verification: unavailable, SMTP egress is blocked');
    expect(stdout).not.toContain('hunter2');
    expect(world.smtp.canary.connections).toBe(0);
  });

  it('refuses a malformed proxy URL by name, without its password', async () => {
    const { status, stderr } = await runCliAsync(['doctor'], { ...env, MAILSURE_SMTP_PROXY: 'socks5h://probe:hunter2@proxy:1080' });
    expect(status).toBe(78);
    expect(stderr).toContain(
      'MAILSURE_SMTP_PROXY="socks5h://probe:***@proxy:1080": must be socks5://, not socks5h://: the prober resolves and checks MX addresses itself and gives the proxy IP addresses',
    );
    expect(stderr).not.toContain('hunter2');
  });

  it('refuses a bad setting with the variable named', async () => {
    const { status, stderr } = await runCliAsync(['doctor'], {
      ...env,
      MAILSURE_SMTP_EGRESS_IP: 'not-an-ip',
      MAILSURE_CANARY_DOMAINS: 'gmail.com,bad_name',
    });
    expect(status).toBe(78);
    expect(stderr).toContain('MAILSURE_SMTP_EGRESS_IP="not-an-ip": must be an IPv4 or IPv6 address');
    expect(stderr).toContain('MAILSURE_CANARY_DOMAINS="gmail.com,bad_name": "bad_name" is not a domain name');
  });
});
