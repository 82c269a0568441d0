/**
 * `mailsure import policy --kind …` as an operator runs it, on a real SQLite file, then /v5/ev
 * from an app on that same file against the test world: an address entry applies to that
 * address, a domain entry to every address at the domain, each kind with its code.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../../src/storage/interfaces.js';
import { openStorage } from '../../src/storage/open-storage.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { CLI_TEST_TIMEOUT, runCli } from '../helpers/cli.js';
import { startTestWorld, type TestWorld } from '../helpers/world/index.js';

let dataDir: string;
let env: Record<string, string>;
let world: TestWorld;
let storage: Storage;
let t: TestApp;
const keys = { plain: { current: '', legacy: '' }, optedOut: { current: '', legacy: '' }, updated: { current: '', legacy: '' } };

function createKey(name: string, ...flags: string[]): string {
  const out = runCli(['keys', 'create', '--name', name, ...flags], env);
  expect(out.status).toBe(0);
  return /api key: +(\S+)/.exec(out.stdout)![1]!;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'mailsure-policy-cli-'));
  env = { MAILSURE_DATA_DIR: dataDir };
  keys.plain.current = createKey('plain');
  keys.plain.legacy = createKey('plain-legacy', '--variant', 'email_validation');
  keys.optedOut.current = createKey('opted-out', '--no-bouncers');
  keys.optedOut.legacy = createKey('opted-out-legacy', '--no-bouncers', '--variant', 'email_validation');
  keys.updated.current = createKey('updated');
  keys.updated.legacy = createKey('updated-legacy', '--variant', 'email_validation');
  world = await startTestWorld();
  storage = await openStorage({ dataDir });
  t = await makeTestApp({ storage, dataDir, env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'mailbox' } });
}, CLI_TEST_TIMEOUT);
afterAll(async () => {
  await t?.close();
  await storage?.close();
  await world?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const path = join(dataDir, name);
  writeFileSync(path, text);
  return path;
}

async function ev(key: string, email: string) {
  const res = await t.app.inject({ url: `/v5/ev?email=${encodeURIComponent(email)}&api_key=${key}` });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  return body.safe_to_send ?? body.email_validation;
}

type Expect = [email: string, code: number, status: string, legacyStatus: string, domainType?: string, role?: boolean];

/** Both variants, whole body: status, code, domain type and role flag exactly as given, nothing else. */
async function expectVerdicts(which: keyof typeof keys, rows: Expect[]) {
  for (const [email, code, status, legacyStatus, domainType, role] of rows) {
    const fields = {
      address: email,
      status_code: code,
      ...(domainType ? { domain_type: domainType } : {}),
      ...(role ? { role_account: true } : {}),
    };
    expect(await ev(keys[which].current, email), `${email} (${which}, safe_to_send)`).toEqual({ ...fields, status });
    expect(await ev(keys[which].legacy, email), `${email} (${which}, email_validation)`).toEqual({ ...fields, status: legacyStatus });
  }
}

const d = () => world.domains;

// One file per kind, CSV and NDJSON, each with an address entry, a whole-domain entry and lines
// that must be reported without stopping the good ones.
const FILES = {
  trap: [
    'traps.csv',
    [
      'email,domain',
      'Trap@Mailbox-OK.com,',
      ',accept-all.net',
      '',
      'not an address@,',
      'both@mailbox-ok.com,mailbox-ok.com',
      ',',
      '"unterminated,',
    ].join('\n') + '\n',
  ],
  complainer: [
    'complainers.ndjson',
    [
      '{"email":"angry@mailbox-ok.com"}',
      '{"domain":"Mailbox-Full.NET."}',
      '',
      'not json',
      '[1,2]',
      'null',
      '{"email":42}',
      '{"__proto__":{"email":"polluted@mailbox-ok.com"}}',
      '{"domain":"<script>alert(1)</script>.com"}',
      `{"email":"'; DROP TABLE policy_entries; --@mailbox-ok.com"}`,
    ].join('\n') + '\n',
  ],
  optout: [
    'optouts.csv',
    // A byte-order mark, CRLF, padded mixed-case headers and an extra column, as spreadsheets write.
    '\ufeffEmail , DOMAIN ,note\r\noptout@mailbox-ok.com,,from the form\r\n,bücher.com,IDN: stored as its A-label\r\n,localhost,\r\n,../../etc/passwd,\r\nextra@mailbox-ok.com,,a,b\r\n',
  ],
  do_not_email: [
    'do-not-email.jsonl',
    [
      '{"email":"dne@mailbox-ok.com","source":"DMA"}',
      '{"domain":"starttls.net"}',
      `{"email":"${'a'.repeat(100_000)}@mailbox-ok.com"}`,
      '{"email":"ctrl\\u0000char@mailbox-ok.com"}',
      '{"email":" DNE@mailbox-ok.com "}',
    ].join('\n') + '\n',
  ],
  bouncer: [
    'bouncers.csv',
    ['email,domain', 'bouncy@mailbox-ok.com,', ',multi-mx.com', '"spaced out@mailbox-ok.com",', ',-bad-.com'].join('\n') + '\n',
  ],
} as const;

const REPORTS: Record<keyof typeof FILES, string[]> = {
  trap: [
    'policy trap from CSV: 2 loaded (2 new), 4 rejected',
    '  line 5: email is not a valid address (spaces are only allowed inside a quoted username)',
    '  line 6: give either email or domain, not both',
    '  line 7: no email or domain',
    '  line 8: Quote Not Closed: the parsing is finished with an opening quote at line 8',
  ],
  complainer: [
    'policy complainer from NDJSON: 2 loaded (2 new), 7 rejected',
    '  line 4: not valid JSON',
    '  line 5: not a JSON object',
    '  line 6: not a JSON object',
    '  line 7: no email or domain',
    '  line 8: no email or domain',
    '  line 9: domain is not a domain name',
    '  line 10: email is not a valid address (spaces are only allowed inside a quoted username)',
  ],
  optout: [
    'policy optout from CSV: 2 loaded (2 new), 3 rejected',
    '  line 4: domain is not a domain name',
    '  line 5: domain is not a domain name',
    '  line 6: columns length is 3, got 4 on line 6',
  ],
  do_not_email: [
    // The padded, upper-case repeat of line 1 loads, but as the same entry: 3 loaded, 2 new.
    'policy do_not_email from NDJSON: 3 loaded (2 new), 2 rejected',
    '  line 3: email is not a valid address (the address is far too long)',
    '  line 4: email is not a valid address (the address contains a control character)',
  ],
  bouncer: [
    'policy bouncer from CSV: 2 loaded (2 new), 2 rejected',
    '  line 4: email is not a valid address (spaces are only allowed inside a quoted username)',
    '  line 5: domain is not a domain name',
  ],
};

describe('mailsure import policy', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('gives the world’s own answers before anything is imported', async () => {
    await expectVerdicts('plain', [
      [`trap@${d().mailboxOk}`, 400, 'invalid', 'invalid', 'biz'],
      [`alice@${d().acceptAll}`, 45, 'catchall', 'unverifiable', 'biz'],
      [world.addresses.full452, 410, 'invalid', 'invalid', 'biz'],
      [world.addresses.idnKnown, 50, 'safetosend', 'valid', 'biz'],
      [world.addresses.starttlsKnown, 50, 'safetosend', 'valid', 'biz'],
    ]);
    await expectVerdicts('plain', [[world.addresses.multiMxKnown, 50, 'safetosend', 'valid', 'biz']]);
  });

  it.each(Object.keys(FILES) as (keyof typeof FILES)[])(
    'imports the %s list, reporting each bad line with its number and reason',
    async (kind) => {
      const [name, text] = FILES[kind];
      const out = runCli(['import', 'policy', '--kind', kind, file(name, text)], env);
      expect(out.stderr).toBe('');
      expect(out.status).toBe(0);
      expect(out.stdout).toBe(REPORTS[kind].join('\n') + '\n');
      expect(await storage.policy.count(kind)).toBe(2);
    },
  );

  it('updates rather than duplicates on a re-import', async () => {
    const out = runCli(['import', 'policy', '--kind', 'trap', join(dataDir, FILES.trap[0])], env);
    expect(out.status).toBe(0);
    expect(out.stdout.split('\n')[0]).toBe('policy trap from CSV: 2 loaded (0 new), 4 rejected');
    expect(await storage.policy.count('trap')).toBe(2);
  });

  it('applies each address entry to that address, with its kind’s code', async () => {
    const ok = d().mailboxOk;
    await expectVerdicts('plain', [
      [`trap@${ok}`, 525, 'trap', 'risky'],
      [`angry@${ok}`, 525, 'trap', 'risky'],
      [`optout@${ok}`, 530, 'trap', 'risky'],
      [`dne@${ok}`, 535, 'trap', 'risky'],
      // Importing the bouncer list is the opt-in: every key reports it, without a flag.
      [`bouncy@${ok}`, 520, 'invalid', 'invalid'],
      // The rest of the domain is untouched: no line of these files listed mailbox-ok.com whole.
      [world.addresses.known, 50, 'safetosend', 'valid', 'biz'],
    ]);
    // A key created with --no-bouncers ignores the list: the mailbox is probed (and is unknown).
    await expectVerdicts('optedOut', [[`bouncy@${ok}`, 400, 'invalid', 'invalid', 'biz']]);
  });

  it('lets a key opt out of bouncers with keys update --no-bouncers, and back in with --bouncers', async () => {
    for (const name of ['updated', 'updated-legacy']) {
      const out = runCli(['keys', 'update', name, '--no-bouncers'], env);
      expect(out.status).toBe(0);
      expect(out.stdout).toContain('bouncers:  not reported (opted out)');
    }
    await expectVerdicts('updated', [[`bouncy@${d().mailboxOk}`, 400, 'invalid', 'invalid', 'biz']]);
    expect(runCli(['keys', 'update', 'opted-out', '--bouncers'], env).stdout).toContain('bouncers:  reported (520)');
    expect(runCli(['keys', 'show', 'plain'], env).stdout).toContain('bouncers:  reported (520)');
  });

  it('applies each domain entry to any address at the domain, without probing it', async () => {
    world.reset();
    await expectVerdicts('plain', [
      // trap: accept-all.net
      [`alice@${d().acceptAll}`, 525, 'trap', 'risky'],
      [`info@${d().acceptAll}`, 525, 'trap', 'risky', undefined, true],
      [`never.seen.before@${d().acceptAll}`, 525, 'trap', 'risky'],
      // complainer: Mailbox-Full.NET. as written, stored lower-case without the dot
      [world.addresses.full452, 525, 'trap', 'risky'],
      [world.addresses.fullDomainKnown, 525, 'trap', 'risky'],
      // optout: bücher.com, stored and matched as its A-label
      [world.addresses.idnKnown, 530, 'trap', 'risky'],
      [`sales@${d().idn}`, 530, 'trap', 'risky', undefined, true],
      // do_not_email: starttls.net
      [world.addresses.starttlsKnown, 535, 'trap', 'risky'],
      [`support@${d().starttls}`, 535, 'trap', 'risky', undefined, true],
    ]);
    expect(world.smtp.acceptAll.connections).toBe(0);
    expect(world.smtp.mailboxFull.connections).toBe(0);
    expect(world.smtp.starttls.connections).toBe(0);
    expect(world.smtp.mailboxes.connections).toBe(0);
    // bouncer: multi-mx.com, 520 unless the key opted out.
    await expectVerdicts('plain', [
      [world.addresses.multiMxKnown, 520, 'invalid', 'invalid'],
      [`anyone@${d().multiMx}`, 520, 'invalid', 'invalid'],
    ]);
    await expectVerdicts('updated', [[world.addresses.multiMxKnown, 50, 'safetosend', 'valid', 'biz']]);
  });

  it('loaded nothing from the rejected lines', async () => {
    await expectVerdicts('plain', [
      [`polluted@${d().mailboxOk}`, 400, 'invalid', 'invalid', 'biz'],
      [`extra@${d().mailboxOk}`, 400, 'invalid', 'invalid', 'biz'],
      [`both@${d().mailboxOk}`, 400, 'invalid', 'invalid', 'biz'],
    ]);
    expect(await storage.policy.match('x@localhost', 'localhost')).toEqual([]);
    expect(await storage.policy.match('x@..', '..')).toEqual([]);
  });

  it('reads a one-column file without a header as values: an address or a domain a line', async () => {
    const ok = d().mailboxOk;
    const out = runCli(
      ['import', 'policy', '--kind', 'optout', file('optouts.txt', `headless@${ok}\n\nnot an address@\n${d().greylist}\n`)],
      env,
    );
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    expect(out.stdout).toBe(
      [
        'policy optout from a file of values without a header: 2 loaded (2 new), 1 rejected',
        '  line 3: email is not a valid address (spaces are only allowed inside a quoted username)',
        '',
      ].join('\n'),
    );
    await expectVerdicts('plain', [
      [`headless@${ok}`, 530, 'trap', 'risky'],
      [`anyone@${d().greylist}`, 530, 'trap', 'risky', 'org'],
    ]);
    // A single line is a value too, not a header that leaves nothing to load.
    const one = runCli(['import', 'policy', '--kind', 'optout', file('one.csv', `single@${ok}\n`)], env);
    expect(one.stdout).toBe('policy optout from a file of values without a header: 1 loaded (1 new), 0 rejected\n');
    expect(one.status).toBe(0);
  });

  it('fails, with a non-zero exit status, on a file that loads nothing', () => {
    for (const [name, text, reason] of [
      ['empty.csv', '', 'it has no rows'],
      ['header-only.csv', 'email,domain\n', 'it has no rows'],
      ['empty.ndjson', '\n', 'it has no rows'],
      ['all-bad.csv', 'email\nnot an address@\n', 'every row was rejected'],
    ] as const) {
      const path = file(name, text);
      const out = runCli(['import', 'policy', '--kind', 'trap', path], env);
      expect(out.status, name).toBe(1);
      expect(out.stderr, name).toContain(`mailsure: no entries loaded from ${path}: ${reason}`);
    }
  });

  it('refuses an unknown kind, a missing kind and a missing file with the reason', () => {
    const trapFile = join(dataDir, FILES.trap[0]);
    const badKind = runCli(['import', 'policy', '--kind', 'spammer', trapFile], env);
    expect(badKind).toMatchObject({
      status: 1,
      stdout: '',
      stderr: 'mailsure: --kind must be one of trap, complainer, optout, do_not_email, bouncer\n',
    });
    const noKind = runCli(['import', 'policy', trapFile], env);
    expect(noKind.status).toBe(1);
    expect(noKind.stderr).toContain("required option '--kind <kind>' not specified");
    for (const missing of [join(dataDir, 'missing.csv'), join(dataDir, 'missing.ndjson'), join(dataDir, 'missing')]) {
      expect(runCli(['import', 'policy', '--kind', 'trap', missing], env)).toEqual({
        status: 1,
        stdout: '',
        stderr: `mailsure: no such file: ${missing}\n`,
      });
    }
    for (const kind of ['policy', 'people', 'activity']) {
      const args = kind === 'policy' ? ['import', 'policy', '--kind', 'trap', dataDir] : ['import', kind, dataDir];
      expect(runCli(args, env), kind).toEqual({ status: 1, stdout: '', stderr: `mailsure: not a file but a directory: ${dataDir}\n` });
    }
  });
});
