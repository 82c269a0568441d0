/**
 * `mailsure verify ADDRESS [--explain]` run as a user runs it, against a real HTTPS server on
 * loopback verifying in the test world (real DNS and SMTP servers): the verdict in one line, and
 * with --explain the evidence as a timeline, each SMTP command and reply of this call.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT, runCliAsync } from '../helpers/cli.js';
import { startTlsTestApp, type TlsTestApp } from '../helpers/tls-app.js';
import { startTestWorld, type TestWorld } from '../helpers/world/index.js';

let world: TestWorld;
let server: TlsTestApp;
let dir: string;
let env: Record<string, string>;
let plainKey: string;
const cli = (...args: string[]) => runCliAsync(['verify', ...args], env, 240_000);

beforeAll(async () => {
  world = await startTestWorld();
  server = await startTlsTestApp({
    env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'mailbox', MAILSURE_SMTP_FROM: 'verify@probe.mailsure-test.com' },
  });
  dir = await mkdtemp(join(tmpdir(), 'mailsure-cli-verify-'));
  await writeFile(join(dir, 'cert.pem'), server.cert);
  const key = (await server.t.key('cli', { services: 'verification', evidence: true })).key;
  plainKey = (await server.t.key('plain', { services: 'verification' })).key;
  env = { MAILSURE_URL: `https://127.0.0.1:${server.port}`, MAILSURE_KEY: key, MAILSURE_CA: join(dir, 'cert.pem') };
}, CLI_TEST_TIMEOUT);
afterAll(async () => {
  await server?.close();
  await world?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('mailsure verify', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('prints the verdict, and with --explain the rule, the stages and this call’s SMTP conversation', async () => {
    const plain = await cli(world.addresses.unknown);
    expect([plain.status, plain.stdout]).toEqual([0, `${world.addresses.unknown}: invalid (400), domain type biz, role account\n`]);

    const explained = await cli(world.addresses.unknown, '--explain');
    expect(explained.status).toBe(0);
    const lines = explained.stdout.split('\n');
    expect(lines[1]).toBe('rule:   mailbox.unknown-user — the MX refused the address as unknown: the mailbox does not exist');
    expect(lines[2]).toBe('        docs/verification.md#rule-mailbox-unknown-user');
    expect(lines).toContain('  syntax: ok');
    expect(lines).toContain('  provider: default (RCPT proves: mailbox)');
    expect(lines).toContain('smtp mx.mailbox-ok.com (at 127.0.0.10, egress egress-1, no TLS):');
    expect(explained.stdout).toMatch(/\n +\+\d+ms > MAIL FROM:<verify@probe\.mailsure-test\.com> {3}\[our-sender\]\n/);
    expect(explained.stdout).toMatch(
      new RegExp(`\\n +\\+\\d+ms > RCPT TO:<${world.addresses.unknown}> {3}\\[address\\]\\n +< 550 5\\.1\\.1 `),
    );
    expect(explained.stdout).toMatch(/> RCPT TO:<[a-z0-9]{14}@mailbox-ok\.com> {3}\[catch-all-probe\]/);
  });

  it('says why there is no evidence for a key without the permission, and fails in one line on a bad key', async () => {
    const without = await runCliAsync(['verify', 'ann@@example.com', '--explain'], { ...env, MAILSURE_KEY: plainKey }, 240_000);
    expect(without.stdout).toBe(
      'ann@@example.com: invalid (155)\nno evidence: this key does not have the evidence permission (mailsure keys update KEY --evidence)\n',
    );
    const refused = await runCliAsync(['verify', 'ann@example.com'], { ...env, MAILSURE_KEY: 'nope' }, 240_000);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe('mailsure: 401 Invalid API key\n');
  });
});
