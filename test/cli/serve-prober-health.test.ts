/**
 * Prober health through the real `mailsure serve` over HTTPS (issue 13): the start banner line,
 * /readyz's `prober` body, the warning in the log and the verdicts a blocked or lying network
 * gets, in a child process against the test world.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServe } from '../helpers/cli.js';
import { closedPort, startSilentListeners } from '../helpers/world/egress.js';
import { startTestWorld, type TestWorld } from '../helpers/world/index.js';

let world: TestWorld;
const dirs: string[] = [];
beforeAll(async () => {
  world = await startTestWorld();
});
afterEach(() => {
  world.reset();
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});
afterAll(() => world.close());

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { rejectUnauthorized: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

/** serve on an empty data dir (so a demo key is printed); answers its base URL, key and output. */
async function serve(port: number, env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'mailsure-prober-'));
  dirs.push(dataDir);
  const server = startServe(
    {
      ...world.env,
      MAILSURE_VERIFY_DEPTH: 'mailbox',
      MAILSURE_DATA_DIR: dataDir,
      MAILSURE_PORT: String(port),
      MAILSURE_HOST: '127.0.0.1',
      ...env,
    },
    /synthetic people were loaded/,
  );
  const out = await server.ready;
  const key = /api_key=(ms_[A-Za-z0-9_-]+)/.exec(out)![1]!;
  return { server, out, key, base: `https://127.0.0.1:${port}` };
}

describe('mailsure serve with a lying resolver or a blocked port 25', () => {
  it('says at start that mailbox verification is unavailable, and why; verdicts are unknown, never invalid', async () => {
    world.dns.setMode({ kind: 'nxdomain' });
    const { server, out, key, base } = await serve(18561, {});
    try {
      expect(out).toContain('Mailbox verification: unavailable, the resolver cannot be trusted: the resolver denies domains that exist');
      const ready = await get(`${base}/readyz`);
      expect(ready.status).toBe(200);
      const body = JSON.parse(ready.body) as { status: string; prober: { mailbox_verification: string; resolver: { state: string } } };
      expect(body.status).toBe('ready');
      expect(body.prober).toMatchObject({ mailbox_verification: 'unavailable', resolver: { state: 'failed' } });
      for (const email of [world.addresses.known, `alice@${world.domains.nxdomain}`]) {
        const res = await get(`${base}/v5/ev?email=${encodeURIComponent(email)}&api_key=${key}`);
        expect(JSON.parse(res.body)).toMatchObject({ safe_to_send: { status: 'unknown', status_code: 5 } });
      }
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const log = server
      .output()
      .stdout.split('\n')
      .filter((l) => l.includes('"prober health: resolver is failed'));
    expect(log).toHaveLength(1);
    expect(JSON.parse(log[0]!)).toMatchObject({ level: 40, concern: 'resolver', state: 'failed' });
  });

  it('answers 20 (what DNS proved) instead of 420 or 400 when port 25 is refused everywhere', async () => {
    const addresses = [...new Set(Object.keys(world.smtp).map((name) => world.smtpAddress(name as never)))];
    const blocked = await closedPort(addresses);
    const { server, out, key, base } = await serve(18562, { MAILSURE_SMTP_PORT: String(blocked) });
    try {
      expect(out).toContain(
        `Mailbox verification: unavailable, SMTP egress is blocked: outbound TCP port ${blocked} is blocked from this host`,
      );
      expect(out).toMatch(/^SMTP egresses: 0 of 1 healthy \(egress-1 direct; egress check failed\)$/m);
      for (const email of [world.addresses.unknown, `alice@${world.domains.refused}`]) {
        const res = await get(`${base}/v5/ev?email=${encodeURIComponent(email)}&api_key=${key}`);
        expect(JSON.parse(res.body)).toMatchObject({ safe_to_send: { status: 'valid', status_code: 20 } });
      }
      const body = JSON.parse((await get(`${base}/readyz`)).body) as { prober: { smtp_egress: { state: string; hint: string } } };
      expect(body.prober.smtp_egress.state).toBe('failed');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it.each([
    ['a hijacking resolver', 18564, 'resolver', 'hijack'],
    ['a resolver that does not answer', 18565, 'resolver', 'silent-port'],
    ['a filtered port 25 (no banner)', 18566, 'smtp_egress', 'filtered'],
  ] as const)('%s: the banner line, /readyz and the verdicts say so', async (_what, port, concern, fault) => {
    const env: Record<string, string> = {};
    let silent: { port: number; close(): Promise<void> } | undefined;
    if (fault === 'hijack') world.dns.setMode({ kind: 'hijack', address: world.smtpAddress('refuse') });
    if (fault === 'silent-port') env.MAILSURE_DNS_SERVERS = `127.0.0.2:${await closedPort(['127.0.0.2'])}`;
    if (fault === 'filtered') {
      silent = await startSilentListeners([...new Set(Object.keys(world.smtp).map((name) => world.smtpAddress(name as never)))]);
      env.MAILSURE_SMTP_PORT = String(silent.port);
    }
    try {
      const { server, out, key, base } = await serve(port, env);
      try {
        expect(out).toMatch(
          concern === 'resolver'
            ? /^Mailbox verification: unavailable, the resolver cannot be trusted: /m
            : /^Mailbox verification: unavailable, SMTP egress is blocked: /m,
        );
        const body = JSON.parse((await get(`${base}/readyz`)).body) as { prober: Record<string, { state: string }> };
        expect(body.prober[concern]!.state).toBe('failed');
        const res = await get(`${base}/v5/ev?email=${encodeURIComponent(`alice@${world.domains.refused}`)}&api_key=${key}`);
        const verdict = (JSON.parse(res.body) as { safe_to_send: { status: string; status_code: number } }).safe_to_send;
        expect(verdict).toMatchObject(
          concern === 'resolver' ? { status: 'unknown', status_code: 5 } : { status: 'valid', status_code: 20 },
        );
      } finally {
        expect(await server.stop()).toBe(0);
      }
      expect(server.output().stdout).toContain(`"prober health: ${concern} is failed`);
    } finally {
      await silent?.close();
    }
  });

  it('providers refusing the prober itself (554 5.7.1 client host listed): 20, never 400, and the identity fails', async () => {
    const { server, key, base } = await serve(18567, { MAILSURE_SMTP_HELO: 'probe.mailsure-test.com' });
    try {
      for (const domain of [world.domains.blocksUsA, world.domains.blocksUsB]) {
        const res = await get(`${base}/v5/ev?email=${encodeURIComponent(`alice@${domain}`)}&api_key=${key}`);
        expect(JSON.parse(res.body)).toMatchObject({ safe_to_send: { status: 'valid', status_code: 20 } });
      }
      const body = JSON.parse((await get(`${base}/readyz`)).body) as {
        prober: { identity: { state: string; evidence: string[] }; mailbox_verification: string };
      };
      expect(body.prober.identity.state).toBe('failed');
      expect(body.prober.identity.evidence).toContain(
        'blocks-us-b.net refused us: 554 5.7.1 Service unavailable; Client host [127.0.0.1] rejected: listed on zen.spamhaus.org',
      );
      expect(body.prober.mailbox_verification).toBe('available');
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(server.output().stdout).toContain('"prober health: identity is failed');
  });

  it('says mailbox verification is available in a healthy world', async () => {
    const { server, out } = await serve(18563, { MAILSURE_SMTP_HELO: 'probe.mailsure-test.com' });
    try {
      expect(out).toMatch(/^Mailbox verification: available$/m);
      expect(out).toMatch(/^SMTP egresses: 1 of 1 healthy \(egress-1 direct\)$/m);
    } finally {
      await server.stop();
    }
  });
});
