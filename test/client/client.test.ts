/**
 * @mailsure/client against a real HTTPS server on loopback (issue 15, item 3): every operation,
 * errors as values, a 429 retried after its Retry-After, and a list of 10,000 rows submitted from
 * a file, waited for with progress, downloaded and unzipped.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailsureClient, describeFailure, type Progress, type VerifyEvidence } from '@mailsure/client';
import type { NewPerson } from '../../src/people/person.js';
import { kate, peopleBatch } from '../helpers/people.js';
import { startTlsTestApp, type TlsTestApp } from '../helpers/tls-app.js';
import { unzip } from '../helpers/unzip.js';

const joe: NewPerson = {
  ...kate,
  personKey: 'P2',
  firstName: 'Joseph',
  fields: { age: '45-54' },
  interests: [],
  emails: ['joe@example.com'],
};

let server: TlsTestApp;
let dir: string;
let key: string;
let mailsure: MailsureClient;
const client = (apiKey: string, options: Partial<ConstructorParameters<typeof MailsureClient>[0]> = {}) =>
  new MailsureClient({ baseUrl: `https://127.0.0.1:${server.port}`, apiKey, ca: server.cert, ...options });

beforeAll(async () => {
  // Status answers say `Retry-After: 1` instead of 5 (MAILSURE_LIST_POLL_SECONDS): the waits poll as told, sooner.
  server = await startTlsTestApp({ env: { MAILSURE_LIST_POLL_SECONDS: '1' } });
  dir = await mkdtemp(join(tmpdir(), 'mailsure-client-'));
  await server.t.storage.people.upsert(peopleBatch([kate, joe]));
  key = (
    await server.t.key('client', {
      services: 'verification,enrichment,eam,email_append,postal_append,lists',
      fields: 'age,gender,interests',
    })
  ).key;
  mailsure = client(key);
});
afterAll(async () => {
  mailsure?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('single-record and bulk operations', () => {
  it('verifies an address', async () => {
    // A number where the contract's query has its string form (the client sends `5`).
    const answer = await mailsure.verify('kate@example.com', { timeout: 5 });
    expect(answer).toEqual({
      ok: true,
      value: { safe_to_send: expect.objectContaining({ address: 'kate@example.com', status: 'valid', status_code: 10 }) },
    });
    const bad = await mailsure.verify('kate@@example.com');
    expect(bad.ok && bad.value.safe_to_send?.status).toBe('invalid');
  });

  it('asks for the evidence behind a verdict, typed', async () => {
    const explained = client((await server.t.key('explained', { services: 'verification', evidence: true })).key);
    const answer = await explained.verify('kate@@example.com', { explain: true });
    const evidence: VerifyEvidence | undefined = answer.ok ? answer.value.evidence : undefined;
    expect(evidence).toMatchObject({
      rule: 'syntax.multiple-at-signs',
      rule_doc: 'docs/verification.md#rule-syntax-multiple-at-signs',
      smtp: [],
    });
    // A key without the permission: the verdict alone.
    const plain = await mailsure.verify('kate@@example.com', { explain: true });
    expect(plain.ok && plain.value).toEqual({ safe_to_send: expect.objectContaining({ status_code: 155 }) });
    explained.close();
  });

  it('enriches one person and a batch, in order', async () => {
    expect(await mailsure.enrich({ email: 'kate@example.com', fields: 'age,gender' })).toEqual({
      ok: true,
      value: { age: '35-44', gender: 'Female' },
    });
    const bulk = await mailsure.enrichBulk([{ email: 'joe@example.com' }, { email: 'nobody@example.com' }, { email: 'not an address' }], {
      fields: 'age',
    });
    expect(bulk.ok).toBe(true);
    if (!bulk.ok) return;
    expect(bulk.value[0]).toEqual({ age: '45-54' });
    expect(bulk.value[1]).toEqual({});
    expect(bulk.value[2]).toMatchObject({ error_code: 400 });
  });

  it('appends an email to a name and address, and an address to an email, one or in bulk', async () => {
    const email = await mailsure.append({
      first: 'Katherine',
      last: 'Doe',
      street: '123 N Main St',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
    });
    expect(email).toEqual({
      ok: true,
      value: {
        email_append: [
          { email: 'kate@example.com', email_match_type: 'Individual' },
          { email: 'joe@example.com', email_match_type: 'Household' },
        ],
      },
    });
    const postal = await mailsure.append({ email: 'joe@example.com' });
    expect(postal.ok && postal.value.postal_address).toMatchObject({ first_name: 'Joseph', last_name: 'Doe', zip: '62701-1234' });
    const bulk = await mailsure.appendBulk([{ email: 'kate@example.com' }, { email: 'nobody@example.com' }]);
    expect(bulk.ok && bulk.value.map((a) => a.postal_address?.first_name ?? null)).toEqual(['Katherine', null]);
  });
});

describe('errors are values', () => {
  it('carries the status and message of a refusal', async () => {
    const stranger = client('not-a-key');
    expect(await stranger.verify('kate@example.com')).toEqual({
      ok: false,
      error: { kind: 'http', status: 401, message: 'Invalid API key' },
    });
    const lists = await stranger.lists.list();
    expect(lists).toEqual({ ok: false, error: { kind: 'http', status: 401, message: 'Invalid API key' } });
    stranger.close();
    const missing = await mailsure.lists.status(987654);
    expect(missing).toEqual({ ok: false, error: { kind: 'http', status: 404, message: 'List not found' } });
    expect(describeFailure((missing as { ok: false; error: Parameters<typeof describeFailure>[0] }).error)).toBe('404 List not found');
    const tooMany = await mailsure.enrichBulk(Array.from({ length: 5_001 }, () => ({ email: 'kate@example.com' })));
    expect(tooMany).toEqual({ ok: false, error: { kind: 'http', status: 400, message: 'Too many records requested' } });
  });

  it('reports a server it cannot reach or cannot trust as a network failure', async () => {
    const untrusted = new MailsureClient({ baseUrl: `https://127.0.0.1:${server.port}`, apiKey: key });
    const refused = await untrusted.verify('kate@example.com');
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toMatchObject({ kind: 'network', message: expect.stringMatching(/certificate/i) });
    untrusted.close();
    const port = await freePort();
    const nobody = new MailsureClient({ baseUrl: `https://127.0.0.1:${port}`, apiKey: key });
    expect(await nobody.verify('kate@example.com')).toMatchObject({
      ok: false,
      error: { kind: 'network', message: expect.stringContaining('ECONNREFUSED') },
    });
    nobody.close();
  });
});

describe('rate limits', () => {
  it('retries a 429 after the Retry-After the server gave, and answers it when told not to retry', async () => {
    const slow = (await server.t.key('one-a-second', { services: 'verification', rate: '1' })).key;
    const retries: { status: number; waitMs: number }[] = [];
    const patient = client(slow, { maxRetries: 5, onRetry: (r) => retries.push(r) });
    const impatient = client(slow, { maxRetries: 0 });
    // One call a second: of five sent at once, at most two can fall in the windows they span.
    const refused = (await Promise.all(['a', 'b', 'c', 'd', 'e'].map((local) => impatient.verify(`${local}@example.com`)))).filter(
      (r) => !r.ok,
    );
    expect(refused.length).toBeGreaterThanOrEqual(3);
    for (const r of refused)
      expect(r).toEqual({
        ok: false,
        error: { kind: 'http', status: 429, message: 'Rate limit exceeded', retryAfter: expect.any(Number) },
      });
    // Three at once: each refused one waits as told and tries again, until all three are answered.
    const retried = await Promise.all(['f', 'g', 'h'].map((local) => patient.verify(`${local}@example.com`)));
    expect(retried.map((r) => r.ok && r.value.safe_to_send?.address)).toEqual(['f@example.com', 'g@example.com', 'h@example.com']);
    expect(retries.length).toBeGreaterThanOrEqual(1);
    for (const r of retries) expect(r.status).toBe(429);
    expect(retries[0]!.waitMs).toBeGreaterThanOrEqual(1000);
    patient.close();
    impatient.close();
  });
});

describe('lists', () => {
  const FILE = [
    'email,first,last,street,city,state,zip',
    'kate@example.com,Katherine,Doe,123 N Main St,Springfield,IL,62701',
    'nobody@example.com,Mary,Doe,123 North Main Street,Springfield,IL,62701',
  ].join('\n');

  it('submits 10,000 rows from a file, waits with progress, downloads the zip and unzips the results', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => (i % 10 === 9 ? `broken-${i}` : `person${i}@example.com`));
    const input = join(dir, 'ten-thousand.csv');
    await writeFile(input, `email\n${rows.join('\n')}\n`);
    const submitted = await mailsure.lists.submit(input, { header: 'true' }); // the contract's string form; booleans below
    expect(submitted.ok).toBe(true);
    if (!submitted.ok) return;
    expect(submitted.value.location).toBe(`/v5/list/${submitted.value.list_id}`);
    expect(submitted.value.size_bytes).toBe((await stat(input)).size);

    const seen: Progress[] = [];
    const done = await mailsure.lists.wait(submitted.value.list_id, { onProgress: (p) => seen.push(p) });
    expect(done.ok && done.value.status).toBe('Results');
    // Verification and enrichment both ran over the 10,000 records.
    expect(Object.keys(seen.at(-1)!.list.services)).toEqual(['email_validation', 'email_intelligence']);
    // Progress reads as records: 10,000 of 10,000, not 20,000 over the two services.
    expect(seen.at(-1)).toMatchObject({ status: 'Results', label: 'Results', fraction: 1, done: 10_000, total: 10_000 });
    expect(seen.at(-1)!.services.map((s) => [s.name, s.done, s.total])).toEqual([
      ['email_validation', 10_000, 10_000],
      ['email_intelligence', 10_000, 10_000],
    ]);
    for (const p of seen) expect(p.done <= p.total && p.total <= 10_000).toBe(true);

    const zip = await mailsure.lists.download(submitted.value.list_id, dir);
    expect(zip.ok).toBe(true);
    if (!zip.ok) return;
    expect(zip.value.path).toBe(join(dir, `ten-thousand-${submitted.value.list_id}-Service.zip`));
    expect((await stat(zip.value.path)).mode & 0o777).toBe(0o600);
    const inZip = await unzip(await readFile(zip.value.path));
    expect(Object.keys(inZip)).toEqual([`ten-thousand-${submitted.value.list_id}-Service.csv`]);

    const unzipped = await mailsure.lists.downloadAndUnzip(submitted.value.list_id, join(dir, 'out'));
    expect(unzipped.ok).toBe(true);
    if (!unzipped.ok) return;
    const lines = (await readFile(unzipped.value.path, 'utf8')).trim().split(/\r?\n/);
    expect(lines).toHaveLength(10_001);
    expect(lines[0]).toMatch(/^email,Validation Status,Validation Code/);
    // Lists speak the legacy taxonomy: code 10 (syntax only, the test server's depth) is unknown there.
    expect(lines[1]).toMatch(/^person0@example\.com,unknown,10,/);
    expect(lines[10]).toMatch(/^broken-9,invalid,/);
    expect((await stat(unzipped.value.path)).mode & 0o777).toBe(0o600);

    // Where the results cannot be written is a local file failure, naming the path, not a network one.
    const nowhere = join(dir, 'no-such-dir', 'results.zip');
    expect(await mailsure.lists.download(submitted.value.list_id, nowhere)).toMatchObject({
      ok: false,
      error: { kind: 'file', path: nowhere, message: `cannot write ${nowhere}: no such directory` },
    });
    const underFile = join(input, 'out');
    expect(await mailsure.lists.downloadAndUnzip(submitted.value.list_id, underFile)).toMatchObject({
      ok: false,
      error: { kind: 'file', path: underFile, message: `cannot write ${underFile}: a part of its path is a file, not a directory` },
    });
  }, 300_000);

  it('submits a stream, lists, purchases a report and cancels', async () => {
    // Flags as booleans, sent as the contract's `true`: the header row is no record, and the list waits for its purchase.
    const reported = await mailsure.lists.submit(
      Readable.from([Buffer.from(FILE)]),
      { header: true, report: true },
      { fileName: 'people.csv' },
    );
    expect(reported.ok).toBe(true);
    if (!reported.ok) return;
    const report = await mailsure.lists.wait(reported.value.list_id, { untilReport: true });
    expect(report.ok && report.value).toMatchObject({ status: 'Processed', records: 2 });
    expect(report.ok && report.value.services.email_append?.reporting).toEqual({
      email_match_type: { 'Individual match': 1, 'Household match': 1 },
    });
    expect(await mailsure.lists.results(reported.value.list_id)).toMatchObject({ ok: false, error: { kind: 'http', status: 401 } });
    const bought = await mailsure.lists.purchase(reported.value.list_id, {
      fields: ['age'],
      options: { email_append: { match_type: 'I' } },
    });
    expect(bought.ok && bought.value.list_id).toBe(reported.value.list_id);
    expect(await mailsure.lists.purchase(reported.value.list_id, { fields: ['shoe_size'] })).toMatchObject({
      ok: false,
      error: { status: 400 },
    });
    const finished = await mailsure.lists.wait(reported.value.list_id);
    expect(finished.ok && finished.value.status).toBe('Results');
    const results = await mailsure.lists.downloadAndUnzip(reported.value.list_id, join(dir, 'bought'));
    const lines = results.ok ? (await readFile(results.value.path, 'utf8')).trim().split(/\r?\n/) : [];
    expect(lines[1]).toMatch(/,35-44,kate@example\.com,Individual$/);

    // A list waiting for its purchase is unfinished: it can be cancelled, and then stays so.
    const queued = await mailsure.lists.submit(
      Buffer.from(FILE),
      { header: true, report: true, email_column: 1 },
      { fileName: 'cancel-me.csv' },
    );
    expect(queued.ok).toBe(true);
    if (!queued.ok) return;
    expect((await mailsure.lists.wait(queued.value.list_id, { untilReport: true })).ok).toBe(true);
    const cancelled = await mailsure.lists.cancel(queued.value.list_id);
    expect(cancelled.ok && cancelled.value.status).toBe('Cancelled');
    // A finished list cannot be cancelled.
    expect(await mailsure.lists.cancel(reported.value.list_id)).toMatchObject({
      ok: false,
      error: { kind: 'http', status: 409, message: expect.stringContaining('Results') },
    });
    expect(await mailsure.lists.wait(queued.value.list_id)).toMatchObject({ ok: true, value: { status: 'Cancelled' } });

    const page = await mailsure.lists.list({ perPage: 100 });
    expect(page.ok).toBe(true);
    if (!page.ok) return;
    const ids = page.value.lists.map((l) => l.list_id);
    expect(ids).toEqual(expect.arrayContaining([reported.value.list_id, queued.value.list_id]));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  }, 120_000);

  it('asks a list for its evidence and downloads it, typed; a list without evidence is a 404 value', async () => {
    const explained = client((await server.t.key('explained-lists', { services: 'verification,lists', evidence: true })).key);
    try {
      const file = Buffer.from('email\nkate@example.com\nkate@@example.com\n');
      const submitted = await explained.lists.submit(file, { header: true, evidence: true }, { fileName: 'people.csv' });
      expect(submitted.ok).toBe(true);
      if (!submitted.ok) return;
      const id = submitted.value.list_id;
      expect((await explained.lists.wait(id)).ok).toBe(true);

      const stream = await explained.lists.evidence(id);
      expect(stream.ok && stream.value.fileName).toBe(`people-${id}-Evidence.zip`);
      if (stream.ok) stream.value.stream.destroy();
      const zip = await explained.lists.downloadEvidence(id, dir);
      expect(zip.ok).toBe(true);
      if (!zip.ok) return;
      expect(zip.value.path).toBe(join(dir, `people-${id}-Evidence.zip`));
      expect((await stat(zip.value.path)).mode & 0o777).toBe(0o600);
      const lines = (await unzip(await readFile(zip.value.path)))[`people-${id}-Evidence.jsonl`]!.trimEnd().split('\n');
      const parsed = lines.map((line) => JSON.parse(line) as { row: number; email: string; evidence: VerifyEvidence });
      expect(parsed.map(({ row, email, evidence }) => [row, email, evidence.rule])).toEqual([
        [1, 'kate@example.com', expect.any(String)],
        [2, 'kate@@example.com', 'syntax.multiple-at-signs'],
      ]);
      // The results file is the contract's, evidence or not.
      const results = await explained.lists.downloadAndUnzip(id, join(dir, 'explained'));
      expect(results.ok && (await readFile(results.value.path, 'utf8')).split('\n')[0]).toBe(
        'email,Validation Status,Validation Code,Domain Type,Role Account,Duplicate,Valid Email',
      );

      const without = await explained.lists.submit(file, { header: true }, { fileName: 'plain.csv' });
      if (!without.ok) throw new Error(describeFailure(without.error));
      await explained.lists.wait(without.value.list_id);
      expect(await explained.lists.downloadEvidence(without.value.list_id, dir)).toMatchObject({
        ok: false,
        error: {
          kind: 'http',
          status: 404,
          message: 'This list has no evidence: it was submitted without evidence=true, or by a key without the evidence permission',
        },
      });
      // Another key (without the permission, too) finds no such list.
      expect(await mailsure.lists.evidence(id)).toMatchObject({ ok: false, error: { kind: 'http', status: 404 } });
    } finally {
      explained.close();
    }
  });

  it('refuses a file that is no list, with the status and message as a value', async () => {
    const wrong = await mailsure.lists.submit(Buffer.from('email\nann@example.com\n'), { name: 'people.pdf' });
    expect(wrong).toMatchObject({ ok: false, error: { kind: 'http', status: 422, message: expect.stringContaining('.pdf') } });
  });

  it('says which local file cannot be used, as a file failure and not a network one', async () => {
    const missing = join(dir, 'missing.csv');
    const answer = await mailsure.lists.submit(missing);
    expect(answer).toMatchObject({ ok: false, error: { kind: 'file', path: missing, message: `no such file: ${missing}` } });
    expect(describeFailure((answer as { ok: false; error: Parameters<typeof describeFailure>[0] }).error)).toBe(`no such file: ${missing}`);
    expect(await mailsure.lists.submit(dir)).toMatchObject({
      ok: false,
      error: { kind: 'file', path: dir, message: `${dir} is a directory, not a file` },
    });
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
