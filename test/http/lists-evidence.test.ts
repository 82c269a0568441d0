/**
 * A list's evidence (issue 28 part 3, the list part) over HTTP against the test world's DNS and
 * SMTP servers: `evidence=true` at submit keeps each row's evidence (the object `/v5/ev` answers
 * with `explain=true`) with the chunk's results, and `GET /v5/list/{id}/evidence` serves it as a
 * zip of JSON lines; every answer of that endpoint, the key's permission asked at submit and again
 * at download, the results file unchanged, the file's permissions, retention and cancellation.
 */
import { stat } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultsPath } from '../../src/lists/list-files.js';
import { sweepExpiredLists } from '../../src/lists/pipeline/retention.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { multipart } from '../helpers/multipart.js';
import { unzip } from '../helpers/unzip.js';
import { untilSmtpQuiet } from '../helpers/quiet-smtp.js';
import { startTestWorld, type TestWorld } from '../helpers/world/index.js';

let world: TestWorld;
let t: TestApp;
let explained: string;
let plain: string;
let other: string;

beforeAll(async () => {
  world = await startTestWorld();
  t = await makeTestApp({ env: { ...world.env, MAILSURE_VERIFY_DEPTH: 'mailbox', MAILSURE_SMTP_FROM: 'verify@probe.mailsure-test.com' } });
  explained = (await t.key('explained', { services: 'verification,lists', evidence: true })).key;
  plain = (await t.key('plain', { services: 'verification,lists' })).key;
  other = (await t.key('other', { services: 'verification,lists', evidence: true })).key;
});
afterAll(async () => {
  await t.close();
  await world.close();
});

const NO_EVIDENCE = 'This list has no evidence: it was submitted without evidence=true, or by a key without the evidence permission';
const NOT_PERMITTED = 'API key is not permitted for evidence (the key has no evidence permission)';

interface Line {
  row: number;
  email: string;
  evidence: {
    rule: string;
    stages: { stage: string }[];
    smtp: { transcript: { command?: string; role?: string }[] }[];
  } | null;
}

async function submit(app: TestApp, key: string, query: string, content: string, filename = 'people.csv') {
  const { payload, headers } = multipart([{ name: 'file', filename, content }]);
  return app.app.inject({ method: 'POST', url: `/v5/list${query}`, headers: { ...headers, api_key: key }, payload });
}
async function submitted(app: TestApp, key: string, query: string, content: string): Promise<number> {
  const res = await submit(app, key, query, content);
  expect(res.statusCode).toBe(202);
  await app.lists.idle();
  return (res.json() as { list_id: number }).list_id;
}
const get = (app: TestApp, path: string, key: string) => app.app.inject({ url: path, headers: { api_key: key } });
const answer = (res: { statusCode: number; json(): unknown }) => ({ status: res.statusCode, body: res.json() });
/** The evidence zip's one file, as lines. */
async function evidenceLines(app: TestApp, key: string, listId: number): Promise<{ name: string; lines: Line[]; text: string }> {
  const res = await get(app, `/v5/list/${listId}/evidence`, key);
  expect(res.statusCode).toBe(200);
  const files = await unzip(res.rawPayload);
  expect(Object.keys(files)).toHaveLength(1);
  const [name, text] = Object.entries(files)[0]!;
  expect(text.endsWith('\n')).toBe(true);
  return {
    name,
    text,
    lines: text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Line),
  };
}
async function resultsText(app: TestApp, key: string, listId: number): Promise<string> {
  const res = await get(app, `/v5/list/${listId}/results`, key);
  expect(res.statusCode).toBe(200);
  return Object.values(await unzip(res.rawPayload))[0]!;
}

describe('GET /v5/list/{id}/evidence', () => {
  it('serves one JSON line per row in input order: its address and the evidence /v5/ev explains, never another row’s address', async () => {
    await untilSmtpQuiet(world);
    const { addresses: a, domains: d } = world;
    const emails = [
      a.known,
      a.unknown,
      'not-an-address',
      ...Array.from({ length: 6 }, (_, i) => `user${i}@${d.mailboxOk}`),
      `alice@${d.acceptAll}`,
      `alice@${d.nxdomain}`,
      '',
    ];
    const csv = `Email,Name\n${emails.map((e, i) => ` ${e} ,Person ${i}`).join('\n')}\n`;
    const id = await submitted(t, explained, '?header=true&evidence=true', csv);
    expect((await get(t, `/v5/list/${id}`, explained)).json()).toMatchObject({ status: 'Results', records: emails.length });

    const res = await get(t, `/v5/list/${id}/evidence`, explained);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="people-${id}-Evidence.zip"; filename*=UTF-8''people-${id}-Evidence.zip`,
    );
    const { name, lines, text } = await evidenceLines(t, explained, id);
    expect(name).toBe(`people-${id}-Evidence.jsonl`);
    expect(lines.map((l) => l.row)).toEqual(emails.map((_, i) => i + 1));
    // The address as verified: the cell, trimmed.
    expect(lines.map((l) => l.email)).toEqual(emails);
    expect(Object.keys(lines[0]!)).toEqual(['row', 'email', 'evidence']);

    // The rule of each row is the one a real-time call explains for the same address (the
    // catch-all domain's aside: the list taught the cache its fact, which a later call reads).
    const byRule = new Map(lines.map((l) => [l.email, l.evidence!.rule]));
    expect(byRule.get(`alice@${d.acceptAll}`)).toBe('mailbox.catch-all');
    for (const email of [a.known, a.unknown, 'not-an-address', `alice@${d.nxdomain}`]) {
      const single = await t.app.inject({ url: `/v5/ev?email=${encodeURIComponent(email)}&api_key=${explained}&explain=true` });
      expect(single.statusCode).toBe(200);
      expect({ email, rule: byRule.get(email) }).toEqual({ email, rule: (single.json() as { evidence: { rule: string } }).evidence.rule });
    }
    expect(byRule.get(a.unknown)).toBe('mailbox.unknown-user');
    const unknown = lines[1]!.evidence!;
    expect(unknown.stages.map((s) => s.stage)).toContain('dns');
    const rcpts = unknown.smtp.flatMap((host) => host.transcript).filter((step) => /^RCPT TO:/.test(step.command ?? ''));
    expect(rcpts.find((step) => step.role === 'address')?.command).toBe(`RCPT TO:<${a.unknown}>`);

    // Rows at one MX host shared SMTP sessions (a session asked several of them); each line names only its own address.
    expect(Math.max(...world.smtp.mailboxes.sessions.map((session) => session.rcpts.length))).toBeGreaterThan(2);
    for (const line of lines) {
      const json = JSON.stringify(line);
      for (const email of emails) if (email !== '' && email !== line.email && email.includes('@')) expect(json).not.toContain(email);
      for (const host of line.evidence?.smtp ?? [])
        for (const step of host.transcript)
          if (/^RCPT TO:/.test(step.command ?? '')) {
            expect(['address', 'catch-all-probe']).toContain(step.role);
            if (step.role === 'address') expect(step.command).toBe(`RCPT TO:<${line.email}>`);
          }
    }
    expect(text).not.toContain('Person ');
  });

  it('leaves the results file exactly the contract’s: the same bytes as the list without evidence', async () => {
    await untilSmtpQuiet(world);
    const { addresses: a } = world;
    const csv = `Email,Name\n${a.known},Ann\n${a.unknown},Bob\nnot-an-address,Cy\n`;
    const withEvidence = await submitted(t, explained, '?header=true&evidence=true', csv);
    const without = await submitted(t, explained, '?header=true', csv);
    const text = await resultsText(t, explained, withEvidence);
    expect(text.split('\n')[0]).toBe('Email,Name,Validation Status,Validation Code,Domain Type,Role Account,Duplicate,Valid Email');
    expect(text).toBe(await resultsText(t, explained, without));
  });

  it('400 for an evidence parameter other than true or false, in the contract’s error shape', async () => {
    for (const value of ['maybe', '1', 'yes']) {
      const res = await submit(t, explained, `?header=true&evidence=${value}`, 'Email\na@b.com\n');
      expect(answer(res)).toEqual({
        status: 400,
        body: { error_code: 400, error_msg: 'Invalid parameter evidence: must be true or false' },
      });
    }
    expect((await submit(t, explained, '?header=true&evidence=false', 'Email\na@b.com\n')).statusCode).toBe(202);
    await t.lists.idle();
  });

  it('answers a list not found, or another key’s, exactly as the results download does', async () => {
    const id = await submitted(t, explained, '?header=true&evidence=true', 'Email\nnot-an-address\n');
    for (const [path, key] of [
      [`/v5/list/${id}`, other],
      [`/v5/list/${id}`, plain],
      ['/v5/list/999999', explained],
      ['/v5/list/99999999999', explained],
    ] as const) {
      const evidence = await get(t, `${path}/evidence`, key);
      expect(answer(evidence)).toEqual({ status: 404, body: { error_code: 404, error_msg: 'List not found' } });
      expect(answer(evidence)).toEqual(answer(await get(t, `${path}/results`, key)));
    }
    const bad = await get(t, '/v5/list/abc/evidence', explained);
    expect(bad.statusCode).toBe(400);
    expect(answer(bad)).toEqual(answer(await get(t, '/v5/list/abc/results', explained)));
    expect((await get(t, `/v5/list/${id}/evidence`, 'not-a-key')).statusCode).toBe(401);
  });

  it('answers a list not finished 401, exactly as the results download does', async () => {
    const id = await submitted(t, explained, '?header=true&evidence=true', 'Email\nnot-an-address\n');
    for (const status of ['Pending', 'Processing', 'Processed', 'Invalid', 'Error', 'Cancelled'] as const) {
      await t.storage.lists.update(id, { status });
      const evidence = await get(t, `/v5/list/${id}/evidence`, explained);
      expect(answer(evidence)).toEqual({
        status: 401,
        body: { error_code: 401, error_msg: `The results are not ready (the list is ${status})` },
      });
      expect(answer(evidence)).toEqual(answer(await get(t, `/v5/list/${id}/results`, explained)));
    }
    await t.storage.lists.update(id, { status: 'Results' });
    expect((await get(t, `/v5/list/${id}/evidence`, explained)).statusCode).toBe(200);
  });

  it('404 for a list submitted without evidence', async () => {
    const id = await submitted(t, explained, '?header=true', 'Email\nnot-an-address\n');
    expect((await get(t, `/v5/list/${id}/results`, explained)).statusCode).toBe(200);
    expect(answer(await get(t, `/v5/list/${id}/evidence`, explained))).toEqual({
      status: 404,
      body: { error_code: 404, error_msg: NO_EVIDENCE },
    });
  });

  it('evidence=true from a key without the permission: the list runs without evidence, as /v5/ev answers without it', async () => {
    const csv = 'Email\nnot-an-address\nann@@example.com\n';
    const id = await submitted(t, plain, '?header=true&evidence=true', csv);
    expect((await get(t, `/v5/list/${id}`, plain)).json()).toMatchObject({ status: 'Results', records: 2 });
    expect(await resultsText(t, plain, id)).toBe(await resultsText(t, plain, await submitted(t, plain, '?header=true', csv)));
    expect(answer(await get(t, `/v5/list/${id}/evidence`, plain))).toEqual({
      status: 401,
      body: { error_code: 401, error_msg: NOT_PERMITTED },
    });
    expect((await t.storage.lists.get(id))!.evidence).toBe(false);
    expect((await t.storage.lists.chunkEvidence(id, 0, 1)).map((c) => c.evidence)).toEqual([null]);
    expect(await t.files.openResults(id, 'evidence')).toBeUndefined();

    // Granted afterwards (`mailsure keys update plain --evidence`, seen by a process without the
    // key in its cache): the list still has none.
    await t.storage.keys.update('plain', { evidence: true });
    const later = await makeTestApp({ storage: t.storage, dataDir: t.dataDir, env: world.env });
    try {
      expect(answer(await get(later, `/v5/list/${id}/evidence`, plain))).toEqual({
        status: 404,
        body: { error_code: 404, error_msg: NO_EVIDENCE },
      });
    } finally {
      await later.close();
      await t.storage.keys.update('plain', { evidence: false });
    }
  });

  it('asks the permission again at every download: withdrawn after the submit, 401; granted again, the file', async () => {
    const id = await submitted(t, other, '?header=true&evidence=true', 'Email\nnot-an-address\n');
    const { lines } = await evidenceLines(t, other, id);
    expect(lines).toHaveLength(1);
    await t.storage.keys.update('other', { evidence: false });
    const withdrawn = await makeTestApp({ storage: t.storage, dataDir: t.dataDir, env: world.env });
    try {
      expect(answer(await get(withdrawn, `/v5/list/${id}/evidence`, other))).toEqual({
        status: 401,
        body: { error_code: 401, error_msg: NOT_PERMITTED },
      });
      // The results are the contract's and need no evidence permission.
      expect((await get(withdrawn, `/v5/list/${id}/results`, other)).statusCode).toBe(200);
    } finally {
      await withdrawn.close();
    }
    await t.storage.keys.update('other', { evidence: true });
    const granted = await makeTestApp({ storage: t.storage, dataDir: t.dataDir, env: world.env });
    try {
      expect((await evidenceLines(granted, other, id)).lines).toEqual(lines);
    } finally {
      await granted.close();
    }
  });

  it('keeps the evidence file owner-only, as the results file', async () => {
    const id = await submitted(t, explained, '?header=true&evidence=true', 'Email\nnot-an-address\n');
    const file = await stat(resultsPath(t.dataDir, id, 'evidence'));
    expect(file.mode & 0o777).toBe(0o600);
    expect((await stat(resultsPath(t.dataDir, id))).mode & 0o777).toBe(0o600);
    expect((await stat(resultsPath(t.dataDir, id, 'evidence').replace(/\/evidence\.zip$/, ''))).mode & 0o777).toBe(0o700);
  });

  it('retention deletes the evidence file and forgets the rows’ evidence with the results', async () => {
    const id = await submitted(t, explained, '?header=true&evidence=true', 'Email\nnot-an-address\n');
    expect((await get(t, `/v5/list/${id}/evidence`, explained)).statusCode).toBe(200);
    const sweep = (now: number) =>
      sweepExpiredLists({ store: t.storage.lists, files: t.files, retentionDays: 30, clock: { now: () => now } });
    await sweep(Date.now());
    expect((await get(t, `/v5/list/${id}/evidence`, explained)).statusCode).toBe(200);
    expect(await sweep(Date.now() + 31 * 86_400_000)).toBeGreaterThanOrEqual(1);
    expect(answer(await get(t, `/v5/list/${id}/evidence`, explained))).toEqual({
      status: 404,
      body: { error_code: 404, error_msg: 'Evidence file not found' },
    });
    expect(answer(await get(t, `/v5/list/${id}/results`, explained))).toEqual({
      status: 404,
      body: { error_code: 404, error_msg: 'Results file not found' },
    });
    expect((await t.storage.lists.chunkEvidence(id, 0, 1)).map((c) => c.evidence)).toEqual([null]);
    await expect(stat(resultsPath(t.dataDir, id, 'evidence'))).rejects.toThrow();
  });

  it('cancellation while the results are being written deletes the evidence file with them', async () => {
    const id = await submitted(t, explained, '?header=true&evidence=true', 'Email\nnot-an-address\n');
    await stat(resultsPath(t.dataDir, id, 'evidence'));
    // Cancelled while its results step runs: whatever it wrote by then goes.
    await t.storage.lists.update(id, { status: 'Processing' });
    const cancelled = await t.app.inject({ method: 'DELETE', url: `/v5/list/${id}`, headers: { api_key: explained } });
    expect(cancelled.json()).toMatchObject({ status: 'Cancelled' });
    await expect(stat(resultsPath(t.dataDir, id, 'evidence'))).rejects.toThrow();
    await expect(stat(resultsPath(t.dataDir, id))).rejects.toThrow();
    expect(answer(await get(t, `/v5/list/${id}/evidence`, explained))).toEqual({
      status: 401,
      body: { error_code: 401, error_msg: 'The results are not ready (the list is Cancelled)' },
    });
  });
});
