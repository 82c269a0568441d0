/**
 * Every list state and the List API's status codes, reached over HTTP through the app (decisions
 * §6, docs/lists.md "States"). Where a state needs the pipeline stopped at a given point (a
 * chunk in flight, a parse about to start, a service just completed), the app runs over an
 * in-memory store with one method held on a gate the test opens.
 */
import { mkdtemp, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/lists/callback/sign-body.js';
import type { ListStatus } from '../../src/lists/list-record.js';
import { createDirectoryListFiles } from '../../src/lists/pipeline/directory-list-files.js';
import { PARSE_STEP } from '../../src/lists/pipeline/lease.js';
import { uploadPath } from '../../src/lists/list-files.js';
import { sweepExpiredLists } from '../../src/lists/pipeline/retention.js';
import { openMemoryStorage } from '../../src/storage/open-storage.js';
import type { Storage } from '../../src/storage/interfaces.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startCallbackReceiver, type ReceivedCallback } from '../helpers/callback-receiver.js';
import { multipart, type Part } from '../helpers/multipart.js';
import { until } from '../helpers/until.js';

const ENV = { MAILSURE_LIST_MAX_MB: '1', MAILSURE_ALLOW_PRIVATE_TARGETS: 'on' };
const CSV = 'Email,Name\nann@example.com,Ann\nnot-an-address,Bob\ninfo@example.com,Role\n';
const INTERNAL = 'An internal error stopped the list; it can be submitted again';

const apps: TestApp[] = [];
const closers: (() => void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) close();
  for (const a of apps.splice(0)) await a.close();
});

async function appWith(storage?: Storage, env: Record<string, string> = ENV): Promise<TestApp> {
  const t = await makeTestApp({ env, ...(storage ? { storage } : {}) });
  apps.push(t);
  return t;
}

function client(t: TestApp, key: string) {
  return {
    submit(query: string, parts: Part[] = [{ name: 'file', filename: 'people.csv', content: CSV }]) {
      const { payload, headers } = multipart(parts);
      return t.app.inject({ method: 'POST', url: `/v5/list${query}`, headers: { ...headers, api_key: key }, payload });
    },
    get: (path: string) => t.app.inject({ url: path, headers: { api_key: key } }),
    cancel: (id: number) => t.app.inject({ method: 'DELETE', url: `/v5/list/${id}`, headers: { api_key: key } }),
    purchase: (id: number) => t.app.inject({ method: 'POST', url: `/v5/list/${id}/purchase`, headers: { api_key: key } }),
  };
}

/** Polls until `probe` answers something truthy; fails after `timeoutMs`. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** A local callback receiver recording every POST, closed after the test. */
async function hook(): Promise<{ url: string; received: ReceivedCallback[] }> {
  const receiver = await startCallbackReceiver();
  closers.push(receiver.close);
  return receiver;
}

const oneColumn = (n: number) => Array.from({ length: n }, (_, i) => `user${i}@example.com`).join('\n') + '\n';

describe('Error over HTTP', () => {
  it('ends Error when the upload is gone before the worker parses it, and calls back', async () => {
    const storage = openMemoryStorage();
    const parseHeld = gate();
    let parseAsked = false;
    const claim = storage.lists.claim.bind(storage.lists);
    storage.lists.claim = async (listId, index, ...rest) => {
      if (index === PARSE_STEP) {
        parseAsked = true;
        await parseHeld.opened;
      }
      return claim(listId, index, ...rest);
    };
    const t = await appWith(storage);
    const { key, webhookSecret } = await t.key('acme', { services: 'verification,lists' });
    const c = client(t, key);
    const { url, received } = await hook();

    const res = await c.submit(`?header=true&callback_url=${encodeURIComponent(url)}`);
    expect(res.statusCode).toBe(202);
    const { list_id } = res.json() as { list_id: number };
    await until(() => parseAsked, 'the worker to ask for the parse step');
    await unlink(uploadPath(t.dataDir, list_id, 'csv'));
    parseHeld.open();
    await t.lists.idle();

    const status = await c.get(`/v5/list/${list_id}`);
    expect(status.statusCode).toBe(200);
    expect(status.headers['retry-after']).toBeUndefined();
    expect(status.json()).toMatchObject({ list_id, status: 'Error', error: INTERNAL, records: 0, services: {} });
    expect(t.logs.some((line) => line.includes('"list failed"') && line.includes(`"list_id":${list_id}`))).toBe(true);

    const results = await c.get(`/v5/list/${list_id}/results`);
    expect(results.statusCode).toBe(401);
    expect(results.json()).toEqual({ error_code: 401, error_msg: 'The results are not ready (the list is Error)' });
    const again = await c.cancel(list_id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error_code: 409, error_msg: 'The list is already finished (Error)' });

    await until(() => received.length > 0, 'the callback');
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ list_id, status: 'Error', error: INTERNAL });
    expect(verifySignature(webhookSecret, received[0]!.body, received[0]!.signature)).toBe(true);
    await until(async () => (await t.storage.lists.callbackAttempts(list_id)).length > 0, 'the callback attempt record');
    expect(await t.storage.lists.callbackAttempts(list_id)).toMatchObject([{ status: 200, error: null }]);
  });

  it('ends Error, its running service in Error, when a chunk cannot be committed', async () => {
    const storage = openMemoryStorage();
    storage.lists.commitChunk = () => Promise.reject(new Error('disk full'));
    const t = await appWith(storage);
    const c = client(t, (await t.key('acme', { services: 'verification,lists' })).key);
    const { list_id } = (await c.submit('?header=true')).json() as { list_id: number };
    await t.lists.idle();
    const body = (await c.get(`/v5/list/${list_id}`)).json();
    expect(body).toMatchObject({ status: 'Error', error: INTERNAL, records: 3 });
    expect(body.services.email_validation).toEqual({ input_count: 3, completed_count: 0, status: 'Error' });
    expect(await t.storage.lists.chunkCounts(list_id)).toEqual([]);
  });
});

describe('Cancelled over HTTP', () => {
  it('cancels a list with chunks in flight: the work stops, no callback, results 401', async () => {
    const storage = openMemoryStorage();
    const commits = gate();
    let waiting = 0;
    const commit = storage.lists.commitChunk.bind(storage.lists);
    storage.lists.commitChunk = async (listId, chunk) => {
      waiting += 1;
      await commits.opened;
      return commit(listId, chunk);
    };
    const t = await appWith(storage);
    const c = client(t, (await t.key('acme', { services: 'verification,lists' })).key);
    const { url, received } = await hook();

    // 300 records: chunks of 50, so six chunks, four in flight at once.
    const res = await c.submit(`?callback_url=${encodeURIComponent(url)}`, [
      { name: 'file', filename: 'many.csv', content: oneColumn(300) },
    ]);
    const { list_id } = res.json() as { list_id: number };
    await until(() => waiting === 4, 'four chunks in flight');

    const running = await c.get(`/v5/list/${list_id}`);
    expect(running.headers['retry-after']).toBe('5');
    expect(running.json()).toMatchObject({ status: 'Pending', records: 300 });
    expect(running.json().services.email_validation).toEqual({ input_count: 300, completed_count: 0, status: 'Processing' });

    const cancelled = await c.cancel(list_id);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ list_id, status: 'Cancelled', records: 300 });
    expect(cancelled.json().services.email_validation).toEqual({ input_count: 300, completed_count: 0, status: 'Cancelled' });

    commits.open();
    await t.lists.idle();
    // The four chunks in flight commit; the fifth and sixth never start.
    expect(waiting).toBe(4);
    expect((await t.storage.lists.chunkCounts(list_id)).map((chunk) => chunk.records)).toEqual([50, 50, 50, 50]);
    const after = await c.get(`/v5/list/${list_id}`);
    expect(after.headers['retry-after']).toBeUndefined();
    expect(after.json()).toMatchObject({ status: 'Cancelled' });
    // What was committed, not the whole list.
    expect(after.json().services.email_validation).toEqual({ input_count: 300, completed_count: 200, status: 'Cancelled' });

    const results = await c.get(`/v5/list/${list_id}/results`);
    expect(results.statusCode).toBe(401);
    expect(results.json()).toEqual({ error_code: 401, error_msg: 'The results are not ready (the list is Cancelled)' });
    expect((await c.purchase(list_id)).json()).toEqual({ error_code: 409, error_msg: 'A list in state Cancelled cannot be purchased' });
    // Decisions §6: no callback for Cancelled. A callback would be under way by now: give it the
    // time one takes to arrive here (a few ms) with a wide margin.
    await new Promise((r) => setTimeout(r, 150));
    expect(received).toEqual([]);
    expect(await t.storage.lists.callbackAttempts(list_id)).toEqual([]);
  });

  it('cancels a report=true list waiting in Processed', async () => {
    const t = await appWith();
    const c = client(t, (await t.key('full', { services: 'verification,enrichment,lists', fields: 'age' })).key);
    const { list_id } = (await c.submit('?header=true&report=true')).json() as { list_id: number };
    await t.lists.idle();
    expect((await c.get(`/v5/list/${list_id}`)).json().status).toBe('Processed');
    const cancelled = await c.cancel(list_id);
    expect(cancelled.statusCode).toBe(200);
    // Completed services keep their status and reports.
    expect(cancelled.json()).toMatchObject({
      status: 'Cancelled',
      services: { email_validation: { status: 'Completed' }, email_intelligence: { status: 'Completed' } },
    });
    expect((await c.get(`/v5/list/${list_id}/results`)).statusCode).toBe(401);
    expect((await c.purchase(list_id)).statusCode).toBe(409);
  });
});

describe('Invalid over HTTP', () => {
  it('no email column: Invalid, with the reason, and a signed callback', async () => {
    const t = await appWith();
    const { key, webhookSecret } = await t.key('acme', { services: 'verification,lists' });
    const c = client(t, key);
    const { url, received } = await hook();
    const res = await c.submit(`?header=true&callback_url=${encodeURIComponent(url)}`, [
      { name: 'file', filename: 'names.csv', content: 'first,last\nAnn,Doe\nBob,Roe\n' },
    ]);
    expect(res.statusCode).toBe(202);
    const { list_id } = res.json() as { list_id: number };
    await t.lists.idle();
    const status = await c.get(`/v5/list/${list_id}`);
    expect(status.headers['retry-after']).toBeUndefined();
    expect(status.json()).toMatchObject({ list_id, status: 'Invalid', error: 'No email column found', records: 0, services: {} });
    expect((await c.get(`/v5/list/${list_id}/results`)).json()).toEqual({
      error_code: 401,
      error_msg: 'The results are not ready (the list is Invalid)',
    });

    await until(() => received.length > 0, 'the callback');
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ list_id, status: 'Invalid', error: 'No email column found' });
    expect(verifySignature(webhookSecret, received[0]!.body, received[0]!.signature)).toBe(true);
  });

  it('columns no service of the key can use: Invalid, naming the key’s services', async () => {
    const t = await appWith();
    const c = client(t, (await t.key('append', { services: 'email_append,lists' })).key);
    const { list_id } = (await c.submit('?header=true')).json() as { list_id: number };
    await t.lists.idle();
    expect((await c.get(`/v5/list/${list_id}`)).json()).toMatchObject({
      status: 'Invalid',
      error: "The file's columns cannot feed any service of this key (email_append)",
    });
  });

  it('more than 1,000,000 records: Invalid', async () => {
    // The record limit is the constant MAX_LIST_RECORDS (src/lists/input/scan-list.ts); the app
    // offers no setting for it, so the file really has 1,000,001 rows (7 MB: the size limit is raised).
    const t = await appWith(undefined, { ...ENV, MAILSURE_LIST_MAX_MB: '8' });
    const c = client(t, (await t.key('acme', { services: 'verification,lists' })).key);
    const dir = await mkdtemp(join(tmpdir(), 'mailsure-million-'));
    try {
      const path = join(dir, 'million.csv');
      await writeFile(path, 'a@b.co\n'.repeat(1_000_001));
      expect((await stat(path)).size).toBe(7_000_007);
      const res = await c.submit('', [{ name: 'file', filename: 'million.csv', content: await readFile(path) }]);
      expect(res.statusCode).toBe(202);
      const { list_id } = res.json() as { list_id: number };
      await t.lists.idle();
      expect((await c.get(`/v5/list/${list_id}`)).json()).toMatchObject({
        status: 'Invalid',
        error: 'The list has more than 1,000,000 records',
        records: 0,
        size_bytes: 7_000_007,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('403 once the key’s quota is used up', () => {
  it('refuses every list route with 403 Query limit exceeded', async () => {
    const t = await appWith();
    const c = client(t, (await t.key('small', { services: 'verification,lists', quota: '3' })).key);
    const { list_id } = (await c.submit('?header=true')).json() as { list_id: number };
    await t.lists.idle();
    expect((await c.get(`/v5/list/${list_id}`)).statusCode).toBe(200);
    expect((await c.get('/v5/list')).statusCode).toBe(200);
    const refused = [
      await c.get(`/v5/list/${list_id}`),
      await c.get('/v5/list'),
      await c.get(`/v5/list/${list_id}/results`),
      await c.cancel(list_id),
      await c.purchase(list_id),
      await c.submit('?header=true'),
    ];
    for (const res of refused) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error_code: 403, error_msg: 'Query limit exceeded' });
    }
    // The refused submission stored nothing.
    expect((await t.storage.lists.listForKey((await t.storage.keys.findByName('small'))!.id, { limit: 10, offset: 0 })).total).toBe(1);
  });
});

describe('retention', () => {
  it('404 for the results once retention deleted the files; the status stays readable', async () => {
    const t = await appWith();
    const c = client(t, (await t.key('acme', { services: 'verification,lists' })).key);
    const { list_id } = (await c.submit('?header=true')).json() as { list_id: number };
    await t.lists.idle();
    expect((await c.get(`/v5/list/${list_id}/results`)).statusCode).toBe(200);

    const sweep = (now: number) =>
      sweepExpiredLists({
        store: t.storage.lists,
        files: createDirectoryListFiles(t.dataDir),
        retentionDays: 30,
        clock: { now: () => now },
      });
    expect(await sweep(Date.now())).toBe(0);
    expect((await c.get(`/v5/list/${list_id}/results`)).statusCode).toBe(200);
    expect(await sweep(Date.now() + 31 * 86_400_000)).toBe(1);

    const results = await c.get(`/v5/list/${list_id}/results`);
    expect(results.statusCode).toBe(404);
    expect(results.json()).toEqual({ error_code: 404, error_msg: 'Results file not found' });
    const status = (await c.get(`/v5/list/${list_id}`)).json();
    expect(status).toMatchObject({ status: 'Results', records: 3 });
    expect(status.services.email_validation.reporting.statuses).toMatchObject({ Invalid: 1 });
  });
});

describe('the Processed state without report=true', () => {
  /** The app over a store that records every status it stores, optionally holding the first Processed write. */
  async function recording(hold: boolean) {
    const storage = openMemoryStorage();
    const statuses: ListStatus[] = [];
    const reached = gate();
    const release = gate();
    const update = storage.lists.update.bind(storage.lists);
    storage.lists.update = async (id, patch, onlyFrom) => {
      const row = await update(id, patch, onlyFrom);
      if (row && statuses[statuses.length - 1] !== row.status) {
        statuses.push(row.status);
        if (row.status === 'Processed' && hold) {
          reached.open();
          await release.opened;
        }
      }
      return row;
    };
    return { t: await appWith(storage), statuses, reached, release };
  }

  it('is never stored for a list running one service: Pending → Processing → Results', async () => {
    const { t, statuses } = await recording(false);
    const c = client(t, (await t.key('acme', { services: 'verification,lists' })).key);
    await c.submit('?header=true');
    await t.lists.idle();
    expect(statuses).toEqual(['Pending', 'Processing', 'Results']);
  });

  it('is stored, between the services’ completions, for a list running two: observable over HTTP only then', async () => {
    const { t, statuses, reached, release } = await recording(true);
    const c = client(t, (await t.key('full', { services: 'verification,enrichment,lists', fields: 'age' })).key);
    const { list_id } = (await c.submit('?header=true')).json() as { list_id: number };
    // The list must stop on its Processed write, not finish without one.
    expect(await Promise.race([reached.opened.then(() => 'held'), t.lists.idle().then(() => 'finished without Processed')])).toBe('held');
    const held = await c.get(`/v5/list/${list_id}`);
    expect(held.headers['retry-after']).toBe('5');
    expect(held.json()).toMatchObject({
      status: 'Processed',
      services: {
        email_validation: { status: 'Completed', completed_count: 3 },
        email_intelligence: { status: 'Processing', completed_count: 3 },
      },
    });
    release.open();
    await t.lists.idle();
    expect(statuses).toEqual(['Pending', 'Processed', 'Processing', 'Results']);
    expect((await c.get(`/v5/list/${list_id}`)).json().status).toBe('Results');
  });
});
