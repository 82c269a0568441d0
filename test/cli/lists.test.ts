/**
 * `mailsure lists` (issue 15, item 4) run as a user runs it, against a real HTTPS server on
 * loopback that it reaches by --url/--key/--ca or MAILSURE_URL/MAILSURE_KEY/MAILSURE_CA: submit
 * with --wait and its progress (lines in a pipe, a bar in a pseudo-terminal), status, list,
 * cancel, purchase, download (the results, or with --evidence the evidence); every error one line
 * with the status and the message.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT, ROOT, runCliAsync } from '../helpers/cli.js';
import { kate, peopleBatch } from '../helpers/people.js';
import { startTlsTestApp, type TlsTestApp } from '../helpers/tls-app.js';
import { unzip } from '../helpers/unzip.js';

const FILE = [
  'email,first,last,street,city,state,zip',
  'kate@example.com,Katherine,Doe,123 N Main St,Springfield,IL,62701',
  'x@example.org,Ann,Roe,9 Elm St,Springfield,IL,62701',
].join('\n');

let server: TlsTestApp;
let dir: string;
let env: Record<string, string>;
const cli = (...args: string[]) => runCliAsync(['lists', ...args], env, 240_000);

beforeAll(async () => {
  // Status answers say `Retry-After: 1` instead of 5 (MAILSURE_LIST_POLL_SECONDS): the waits poll as told, sooner.
  server = await startTlsTestApp({ env: { MAILSURE_LIST_POLL_SECONDS: '1' } });
  dir = await mkdtemp(join(tmpdir(), 'mailsure-cli-lists-'));
  await server.t.storage.people.upsert(peopleBatch([kate]));
  const key = (await server.t.key('cli', { services: 'verification,enrichment,email_append,lists', fields: 'age' })).key;
  await writeFile(join(dir, 'cert.pem'), server.cert);
  await writeFile(join(dir, 'people.csv'), FILE);
  env = { MAILSURE_URL: `https://127.0.0.1:${server.port}`, MAILSURE_KEY: key, MAILSURE_CA: join(dir, 'cert.pem') };
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('mailsure lists', () => {
  it(
    'submits with --wait, showing progress fed by the status counts, then shows, lists and downloads it',
    async () => {
      const rows = Array.from({ length: 2_000 }, (_, i) => `person${i}@example.com`);
      await writeFile(join(dir, 'many.csv'), `email\n${rows.join('\n')}\n`);
      const submitted = await cli('submit', join(dir, 'many.csv'), '--header', '--wait');
      expect(submitted.stderr).toMatch(/^list \d+: \w+( \(in progress\))? \d+\/\d+ records/);
      const id = /^list (\d+) submitted \((\d+) bytes\): \/v5\/list\/\1\n/.exec(submitted.stdout)?.[1];
      expect(id, submitted.stdout).toBeDefined();
      // Progress lines in a pipe, as records: the last is the finished list's, then each of the two services' own count.
      expect(submitted.stderr.trim().split('\n').at(-1)).toBe(
        `list ${id}: Results 2000/2000 records (email_validation 2000/2000, email_intelligence 2000/2000)`,
      );
      expect(submitted.stdout).toContain(`list ${id} many.csv: Results, 2000 records`);
      expect(submitted.stdout).toContain('  email_validation: Completed 2000/2000');
      expect(submitted.status).toBe(0);

      const status = await cli('status', id!);
      expect(status.stdout.split('\n')[0]).toMatch(new RegExp(`^list ${id} many.csv: Results, 2000 records, \\d+ bytes, created `));
      const json = JSON.parse((await cli('status', id!, '--json')).stdout);
      expect(json).toMatchObject({ list_id: Number(id), status: 'Results', records: 2000 });

      const listed = await cli('list', '--per-page', '5');
      expect(listed.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+STATUS\s+RECORDS\s+CREATED$/);
      expect(listed.stdout).toMatch(new RegExp(`\\n${id}\\s+many\\.csv\\s+Results\\s+2000\\s`));

      const out = join(dir, 'results');
      const unzipped = await cli('download', id!, '--out', out, '--unzip');
      expect(unzipped.stdout).toBe(`results unzipped to ${join(out, `many-${id}-Service.csv`)}\n`);
      const lines = (await readFile(join(out, `many-${id}-Service.csv`), 'utf8')).trim().split(/\r?\n/);
      expect(lines).toHaveLength(2001);
      const zipped = await cli('download', id!, '--out', dir);
      expect(zipped.stdout).toMatch(
        new RegExp(`^results saved to ${join(dir, `many-${id}-Service.zip`).replace(/[.]/g, '\\.')} \\(\\d+ bytes\\)\\n$`),
      );
      expect(await readdir(dir)).toContain(`many-${id}-Service.zip`);
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'submits with --evidence and downloads the evidence zip with download --evidence',
    async () => {
      const explained = (await server.t.key('cli-evidence', { services: 'verification,lists', evidence: true })).key;
      const run = (...args: string[]) => runCliAsync(['lists', ...args], { ...env, MAILSURE_KEY: explained }, 240_000);
      await writeFile(join(dir, 'explained.csv'), 'email\nkate@example.com\nnot-an-address\n');
      const submitted = await run('submit', join(dir, 'explained.csv'), '--header', '--evidence', '--wait');
      expect(submitted.status).toBe(0);
      const id = /^list (\d+) submitted/.exec(submitted.stdout)?.[1];
      const out = join(dir, 'evidence');
      await mkdir(out);
      const saved = await run('download', id!, '--evidence', '--out', out);
      const path = join(out, `explained-${id}-Evidence.zip`);
      expect(saved.stdout).toMatch(new RegExp(`^evidence saved to ${path.replace(/[.]/g, '\\.')} \\(\\d+ bytes\\)\\n$`));
      const lines = (await unzip(await readFile(path)))[`explained-${id}-Evidence.jsonl`]!.trimEnd().split('\n');
      expect(lines.map((line) => (JSON.parse(line) as { email: string }).email)).toEqual(['kate@example.com', 'not-an-address']);
      const both = await run('download', id!, '--evidence', '--unzip');
      expect(both.stderr).toBe('mailsure: --unzip writes the results file; --evidence saves the evidence zip as it is\n');
      expect(both.status).toBe(1);
      // A list submitted without it has none.
      const plainId = /^list (\d+) submitted/.exec((await run('submit', join(dir, 'explained.csv'), '--header', '--wait')).stdout)?.[1];
      const none = await run('download', plainId!, '--evidence', '--out', out);
      expect(none.stderr).toBe(
        'mailsure: 404 This list has no evidence: it was submitted without evidence=true, or by a key without the evidence permission\n',
      );
      expect(none.status).toBe(1);
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'purchases a --report list and cancels another, by flags instead of the environment',
    async () => {
      const flags = ['--url', env.MAILSURE_URL!, '--key', env.MAILSURE_KEY!, '--ca', env.MAILSURE_CA!];
      const bare = { PATH: process.env.PATH ?? '' };
      const run = (...args: string[]) => runCliAsync(['lists', ...flags, ...args], bare, 240_000);
      const reported = await run('submit', join(dir, 'people.csv'), '--header', '--report', '--wait');
      const id = /^list (\d+) submitted/.exec(reported.stdout)?.[1];
      expect(reported.stdout).toContain(`list ${id} people.csv: Processed, 2 records`);
      expect(reported.stdout).toContain('  email_append: Completed 2/2');
      expect(reported.status).toBe(0);
      const early = await run('download', id!, '--out', dir);
      expect(early.stderr).toBe('mailsure: 401 The results are not ready (the list is Processed)\n');
      expect(early.status).toBe(1);
      const bought = await run('purchase', id!, '--fields', 'age', '--match-type', 'I');
      expect(bought.stdout).toMatch(new RegExp(`^list ${id} people\\.csv: (Processing|Results), 2 records`));

      const other = /^list (\d+) submitted/.exec(
        (await run('submit', join(dir, 'people.csv'), '--header', '--report', '--wait')).stdout,
      )?.[1];
      const cancelled = await run('cancel', other!);
      expect(cancelled.stdout).toMatch(new RegExp(`^list ${other} people\\.csv: Cancelled, 2 records`));
      expect(cancelled.status).toBe(0);
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'says what went wrong in one line with the status and message',
    async () => {
      const badKey = await runCliAsync(['lists', 'list'], { ...env, MAILSURE_KEY: 'not-a-key' });
      expect(badKey).toMatchObject({ status: 1, stdout: '', stderr: 'mailsure: 401 Invalid API key\n' });
      const missing = await cli('status', '987654');
      expect(missing).toMatchObject({ status: 1, stderr: 'mailsure: 404 List not found\n' });
      const wrongFile = await cli('submit', join(dir, 'people.csv'), '--name', 'people.pdf');
      expect(wrongFile.status).toBe(1);
      expect(wrongFile.stderr).toMatch(/^mailsure: 422 [^\n]*\.pdf[^\n]*\n$/);
      const noKey = await runCliAsync(['lists', 'list'], { MAILSURE_URL: env.MAILSURE_URL!, MAILSURE_CA: env.MAILSURE_CA! });
      expect(noKey).toMatchObject({ status: 1, stderr: 'mailsure: no API key: pass --key KEY or set MAILSURE_KEY\n' });
      const untrusted = await runCliAsync(['lists', 'list'], { MAILSURE_URL: env.MAILSURE_URL!, MAILSURE_KEY: env.MAILSURE_KEY! });
      expect(untrusted.status).toBe(1);
      // Node's reason, then how to trust the server's certificate.
      expect(untrusted.stderr).toMatch(
        /^mailsure: network: [^\n]*certificate[^\n]*; trust the server's certificate with --ca FILE or MAILSURE_CA=FILE \(the server's data\/tls\/cert\.pem, or the CA that signed it\)\n$/i,
      );
      const nope = join(dir, 'nope.csv');
      expect(await cli('submit', nope)).toMatchObject({ status: 1, stdout: '', stderr: `mailsure: no such file: ${nope}\n` });
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'uploads a list of more than 2 MB without a MaxListenersExceededWarning',
    async () => {
      // First and last names only: no service can use them, so the list ends Invalid as soon as it
      // is parsed; what is tested is the upload, thousands of writes each waiting for the socket.
      const rows = Array.from({ length: 110_000 }, (_, i) => `Firstname${i},Lastname${i}`);
      await writeFile(join(dir, 'big.csv'), `first,last\n${rows.join('\n')}\n`);
      const submitted = await cli('submit', join(dir, 'big.csv'), '--header');
      const bytes = Number(/\((\d+) bytes\)/.exec(submitted.stdout)?.[1]);
      expect(bytes).toBeGreaterThan(2 * 1024 * 1024);
      expect(submitted).toMatchObject({ status: 0, stderr: '' });
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'draws a progress bar in a terminal',
    async () => {
      const rows = Array.from({ length: 500 }, (_, i) => `tty${i}@example.com`);
      await writeFile(join(dir, 'tty.csv'), `email\n${rows.join('\n')}\n`);
      const command = `node bin/mailsure.js lists submit ${join(dir, 'tty.csv')} --header --wait`;
      // util-linux `script` runs the command on a pseudo-terminal and copies what it drew.
      const screen = await new Promise<string>((resolve, reject) => {
        const child = spawn('script', ['-qfec', command, '/dev/null'], {
          cwd: ROOT,
          env: { PATH: process.env.PATH ?? '', TERM: 'xterm', ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.once('error', reject);
        child.once('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`exit ${code}: ${output}`))));
      });
      const id = /list (\d+) submitted/.exec(screen)?.[1];
      // The bar counts records (500, not 1000 over its two services), then each service's own count.
      expect(screen).toMatch(
        new RegExp(`list ${id} \\[[█░]+\\] 100% 500/500 records \\| Results \\| email_validation 500/500, email_intelligence 500/500`),
      );
      expect(screen).toContain(`list ${id} tty.csv: Results, 500 records`);
    },
    CLI_TEST_TIMEOUT,
  );
});
