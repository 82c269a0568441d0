/** `mailsure keys …` as an operator runs it, on a real SQLite file. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/accounts/api-key.js';
import { openStorage } from '../../src/storage/open-storage.js';
import { CLI_TEST_TIMEOUT, runCli } from '../helpers/cli.js';

let dataDir: string;
let env: Record<string, string>;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'mailsure-keys-'));
  env = { MAILSURE_DATA_DIR: dataDir };
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('mailsure keys', { timeout: CLI_TEST_TIMEOUT }, () => {
  let key = '';

  it('creates a key, prints it once and stores only its hash', async () => {
    const out = runCli(
      [
        'keys',
        'create',
        '--name',
        'acme',
        '--services',
        'verification,lists',
        '--variant',
        'email_validation',
        '--rate',
        '50',
        '--quota',
        '1000',
      ],
      env,
    );
    expect(out.status).toBe(0);
    key = /api key: +(\S+)/.exec(out.stdout)![1]!;
    expect(out.stdout).toMatch(/webhook secret: +whsec_/);
    const storage = await openStorage({ dataDir });
    const record = await storage.keys.findByName('acme');
    await storage.close();
    expect(record).toMatchObject({
      keyHash: hashApiKey(key),
      services: ['verification', 'lists'],
      variant: 'email_validation',
      rate: 50,
      quota: 1000,
    });
  });

  it('refuses a duplicate name and bad settings with the reason', () => {
    const dup = runCli(['keys', 'create', '--name', 'acme'], env);
    expect(dup.status).toBe(1);
    expect(dup.stderr).toBe('mailsure: a key named "acme" already exists\n');
    const bad = runCli(['keys', 'create', '--name', 'x', '--services', 'mind_reading', '--rate', 'fast'], env);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('unknown service mind_reading');
    expect(bad.stderr).toContain('rate must be a whole number of calls per second');
    const badRecords = runCli(['keys', 'create', '--name', 'y', '--record-rate', '0'], env);
    expect(badRecords.status).toBe(1);
    expect(badRecords.stderr).toBe('mailsure: record rate must be a whole number of records per second, at least 1, or none\n');
    const noName = runCli(['keys', 'create'], env);
    expect(noName.status).not.toBe(0);
    expect(noName.stderr).toContain("required option '--name <name>' not specified");
  });

  it('lists and shows keys without the secret', () => {
    const list = runCli(['keys', 'list'], env);
    expect(list.stdout).toMatch(/^NAME +KEY +STATE/m);
    expect(list.stdout).toMatch(/^acme +ms_\w{0,6}.* active +email_validation +verification,lists +0\/1000 +50$/m);
    const show = runCli(['keys', 'show', 'acme'], env);
    expect(show.stdout).toContain('variant:   email_validation');
    expect(show.stdout).toContain('rate:      50 calls/s\n');
    expect(show.stdout).toMatch(/verification +0/);
    expect(list.stdout + show.stdout).not.toContain(key);
  });

  it('updates settings', () => {
    const out = runCli(['keys', 'update', 'acme', '--rate', '200', '--quota', 'none', '--fields', 'age,eam'], env);
    expect(out.status).toBe(0);
    expect(out.stdout).toContain('rate:      200 calls/s');
    expect(out.stdout).toContain('quota:     0/unlimited');
    expect(out.stdout).toContain('fields:    age, eam');
    expect(runCli(['keys', 'update', 'acme'], env).stderr).toContain('nothing to update');
    expect(runCli(['keys', 'update', 'acme', '--record-rate', '2000'], env).stdout).toContain('rate:      200 calls/s, 2000 records/s\n');
    expect(runCli(['keys', 'show', 'acme'], env).stdout).toContain('rate:      200 calls/s, 2000 records/s\n');
    expect(runCli(['keys', 'update', 'acme', '--record-rate', 'none'], env).stdout).toContain('rate:      200 calls/s\n');
    expect(runCli(['keys', 'update', 'nobody', '--rate', '2'], env).stderr).toBe('mailsure: no key named "nobody"\n');
  });

  it('loads suppressions and exceptions, reporting bad lines without dropping good ones', () => {
    const file = join(dataDir, 'suppress.txt');
    writeFileSync(
      file,
      [
        '# comment',
        'Bad.Person@Example.com',
        'spam-domain.com',
        '',
        'not an address@',
        'john..doe@gmail.com',
        'localhost',
        'bad.person@example.com',
      ].join('\n'),
    );
    const out = runCli(['keys', 'suppress', 'acme', file], env);
    expect(out.status).toBe(0);
    expect(out.stdout).toContain('suppressions for "acme": 3 loaded (2 new), 3 rejected');
    expect(out.stdout).toContain('line 5: not a valid address');
    expect(out.stdout).toContain('line 6: not a valid address');
    expect(out.stdout).toContain('line 7: not an address or a domain name');
    const allow = join(dataDir, 'allow.txt');
    writeFileSync(allow, 'vip@example.com\n');
    expect(runCli(['keys', 'allow', 'acme', allow], env).stdout).toContain('exceptions for "acme": 1 loaded (1 new), 0 rejected');
    const show = runCli(['keys', 'show', 'acme'], env).stdout;
    expect(show).toContain('suppressions:      2');
    expect(show).toContain('exceptions:        1');
    expect(runCli(['keys', 'suppress', 'acme', join(dataDir, 'missing.txt')], env).status).not.toBe(0);
  });

  it('revokes a key', () => {
    expect(runCli(['keys', 'revoke', 'acme'], env).stdout).toBe('revoked key "acme"\n');
    expect(runCli(['keys', 'list'], env).stdout).toMatch(/^acme .* revoked /m);
  });
});
