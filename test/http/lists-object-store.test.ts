/**
 * The List API with its files in an object store (MAILSURE_LIST_STORE) on a real S3-protocol
 * server on loopback (s3rver): submit, process, download (streamed by default, a 302 to a
 * short-lived link with MAILSURE_LIST_STORE_REDIRECT), cancellation and retention deleting the
 * objects. The credentials come from the standard AWS environment variables, as in production.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepExpiredLists } from '../../src/lists/pipeline/retention.js';
import { freePort } from '../integration/list-server.js';
import { makeTestApp, type TestAppOptions } from '../helpers/app.js';
import { startPausableProxy, type PausableProxy } from '../helpers/pausable-proxy.js';
import { multipart } from '../helpers/multipart.js';
import { S3_TEST_CREDENTIALS, S3_TEST_REGION, startTestS3, type TestS3 } from '../helpers/s3-server.js';
import { unzip } from '../helpers/unzip.js';
import { until } from '../helpers/until.js';

const CSV = 'Email,Name\nann@example.com,Ann\nnot-an-address,Bob\n';

/** A loopback port nothing listens on. */
const closedPort = freePort;

let s3: TestS3;
let client: S3Client;
const saved: Record<string, string | undefined> = {};
let run = 0;

beforeAll(async () => {
  s3 = await startTestS3();
  client = new S3Client({ endpoint: s3.endpoint, region: S3_TEST_REGION, forcePathStyle: true, credentials: S3_TEST_CREDENTIALS });
  // The AWS credential chain reads the process's environment, as it does in production.
  for (const [name, value] of Object.entries(s3.env(''))) {
    if (!name.startsWith('AWS_')) continue;
    saved[name] = process.env[name];
    process.env[name] = value;
  }
});
afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  client?.destroy();
  await s3?.close();
});

async function appOnStore(more: Record<string, string> = {}, options: Pick<TestAppOptions, 'listStoreDeadlines'> = {}) {
  const prefix = `api-${++run}`;
  const storeEnv = Object.fromEntries(Object.entries(s3.env(prefix)).filter(([name]) => name.startsWith('MAILSURE_')));
  // A list waiting for the store tries again after 50 ms, 100 ms…, not 1 s, 2 s…: the outages here are short.
  const t = await makeTestApp({ env: { ...storeEnv, ...more }, listRetryMs: 50, ...options });
  const key = (await t.key('acme', { services: 'verification,lists' })).key;
  const submit = async () => {
    const { payload, headers } = multipart([{ name: 'file', filename: 'people.csv', content: CSV }]);
    const res = await t.app.inject({ method: 'POST', url: '/v5/list?header=true', headers: { ...headers, api_key: key }, payload });
    expect(res.statusCode).toBe(202);
    return (res.json() as { list_id: number }).list_id;
  };
  const get = (path: string) => t.app.inject({ url: path, headers: { api_key: key } });
  const del = (id: number, k = key) => t.app.inject({ method: 'DELETE', url: `/v5/list/${id}`, headers: { api_key: k } });
  const objects = async () =>
    ((await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${prefix}/` }))).Contents ?? [])
      .map((o) => o.Key!.slice(prefix.length + 1))
      .sort();
  const submitAnswer = (query = '?header=true', as = key) => {
    const { payload, headers } = multipart([{ name: 'file', filename: 'people.csv', content: CSV }]);
    return t.app.inject({ method: 'POST', url: `/v5/list${query}`, headers: { ...headers, api_key: as }, payload });
  };
  return { t, submit, submitAnswer, get, del, objects };
}

/** Resolves once the condition holds (an event the test waits for, never a timed sleep). */
describe('lists with MAILSURE_LIST_STORE on an S3-protocol server', () => {
  it('stores the upload and results as objects, streams the download, and keeps no working copy once done', async () => {
    const { t, submit, get, objects } = await appOnStore();
    try {
      const id = await submit();
      await t.lists.idle();
      expect((await get(`/v5/list/${id}`)).json()).toMatchObject({ status: 'Results', records: 2 });
      expect(await objects()).toEqual([`lists/${id}/results.zip`, `lists/${id}/upload.csv`]);
      const results = await get(`/v5/list/${id}/results`);
      expect(results.statusCode).toBe(200);
      expect(results.headers['content-type']).toBe('application/zip');
      expect(results.headers['content-disposition']).toContain(`filename="people-${id}-Service.zip"`);
      const text = (await unzip(results.rawPayload))[`people-${id}-Service.csv`]!;
      expect(text.split(/\r?\n/)[0]).toBe('Email,Name,Validation Status,Validation Code,Domain Type,Role Account,Duplicate,Valid Email');
      expect(await readdir(join(t.dataDir, 'lists'))).toEqual(['incoming']);
    } finally {
      await t.close();
    }
  });

  it('answers the results with a 302 to a short-lived link when MAILSURE_LIST_STORE_REDIRECT is on', async () => {
    const { t, submit, get } = await appOnStore({ MAILSURE_LIST_STORE_REDIRECT: '1' });
    try {
      const id = await submit();
      await t.lists.idle();
      const answer = await get(`/v5/list/${id}/results`);
      expect(answer.statusCode).toBe(302);
      expect(answer.headers['cache-control']).toBe('no-store');
      const link = String(answer.headers.location);
      expect(link).toMatch(new RegExp(`^${s3.endpoint}/${s3.bucket}/api-\\d+/lists/${id}/results\\.zip\\?.*X-Amz-Expires=300`));
      const fetched = await fetch(link);
      expect(fetched.status).toBe(200);
      expect(fetched.headers.get('content-disposition')).toContain(`filename="people-${id}-Service.zip"`);
      expect(Object.keys(await unzip(Buffer.from(await fetched.arrayBuffer())))).toEqual([`people-${id}-Service.csv`]);
      // Not ready yet, or gone: the same answers as a streamed download.
      await t.storage.lists.update(id, { status: 'Processing' });
      expect((await get(`/v5/list/${id}/results`)).statusCode).toBe(401);
      await t.storage.lists.update(id, { status: 'Results' });
      await t.files.remove(id);
      expect((await get(`/v5/list/${id}/results`)).json()).toEqual({ error_code: 404, error_msg: 'Results file not found' });
    } finally {
      await t.close();
    }
  });

  it('cancellation deletes the list’s objects, only for the key that owns it', async () => {
    const { t, submit, get, objects, del } = await appOnStore();
    try {
      const id = await submit();
      await t.lists.idle();
      // Cancelled while its results are being written: whatever was stored by then goes.
      await t.storage.lists.update(id, { status: 'Processing' });
      expect(await objects()).toHaveLength(2);
      expect((await del(id, (await t.key('other', { services: 'verification,lists' })).key)).statusCode).toBe(404);
      expect(await objects()).toHaveLength(2);
      expect((await del(id)).json()).toMatchObject({ status: 'Cancelled' });
      expect(await objects()).toEqual([]);
      expect((await get(`/v5/list/${id}`)).json()).toMatchObject({ status: 'Cancelled' });
    } finally {
      await t.close();
    }
  });

  it('retention deletes the objects of expired lists; their status stays readable', async () => {
    const { t, submit, get, objects } = await appOnStore();
    try {
      const id = await submit();
      await t.lists.idle();
      const sweep = (now: number) =>
        sweepExpiredLists({ store: t.storage.lists, files: t.files, retentionDays: 30, clock: { now: () => now } });
      expect(await sweep(Date.now())).toBe(0);
      expect(await objects()).toHaveLength(2);
      expect(await sweep(Date.now() + 31 * 86_400_000)).toBe(1);
      expect(await objects()).toEqual([]);
      expect((await get(`/v5/list/${id}/results`)).json()).toEqual({ error_code: 404, error_msg: 'Results file not found' });
      expect((await get(`/v5/list/${id}`)).json()).toMatchObject({ status: 'Results', records: 2 });
    } finally {
      await t.close();
    }
  });

  it('stores a list’s evidence as an object beside its results, streamed, and deletes it with them (retention, cancellation)', async () => {
    const { t, submitAnswer, objects, del } = await appOnStore();
    try {
      const key = (await t.key('explained', { services: 'verification,lists', evidence: true })).key;
      const get = (path: string) => t.app.inject({ url: path, headers: { api_key: key } });
      const submitted = async () => {
        const res = await submitAnswer('?header=true&evidence=true', key);
        expect(res.statusCode).toBe(202);
        await t.lists.idle();
        return (res.json() as { list_id: number }).list_id;
      };
      const id = await submitted();
      expect(await objects()).toEqual([`lists/${id}/evidence.zip`, `lists/${id}/results.zip`, `lists/${id}/upload.csv`]);
      const evidence = await get(`/v5/list/${id}/evidence`);
      expect(evidence.statusCode).toBe(200);
      expect(evidence.headers['content-disposition']).toContain(`filename="people-${id}-Evidence.zip"`);
      const lines = (await unzip(evidence.rawPayload))[`people-${id}-Evidence.jsonl`]!.trimEnd().split('\n');
      expect(lines.map((line) => (JSON.parse(line) as { row: number; email: string }).email)).toEqual([
        'ann@example.com',
        'not-an-address',
      ]);
      expect(await readdir(join(t.dataDir, 'lists'))).toEqual(['incoming']);

      const sweep = (now: number) =>
        sweepExpiredLists({ store: t.storage.lists, files: t.files, retentionDays: 30, clock: { now: () => now } });
      expect(await sweep(Date.now() + 31 * 86_400_000)).toBe(1);
      expect(await objects()).toEqual([]);
      expect((await get(`/v5/list/${id}/evidence`)).json()).toEqual({ error_code: 404, error_msg: 'Evidence file not found' });

      const cancelled = await submitted();
      expect(await objects()).toHaveLength(3);
      // Cancelled while its results are being written: whatever was stored by then goes.
      await t.storage.lists.update(cancelled, { status: 'Processing' });
      expect((await del(cancelled, key)).json()).toMatchObject({ status: 'Cancelled' });
      expect(await objects()).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('answers the evidence with a 302 to a short-lived link when MAILSURE_LIST_STORE_REDIRECT is on', async () => {
    const { t, submitAnswer } = await appOnStore({ MAILSURE_LIST_STORE_REDIRECT: '1' });
    try {
      const key = (await t.key('explained', { services: 'verification,lists', evidence: true })).key;
      const get = (path: string) => t.app.inject({ url: path, headers: { api_key: key } });
      const id = ((await submitAnswer('?header=true&evidence=true', key)).json() as { list_id: number }).list_id;
      await t.lists.idle();
      const answer = await get(`/v5/list/${id}/evidence`);
      expect(answer.statusCode).toBe(302);
      expect(answer.headers['cache-control']).toBe('no-store');
      const link = String(answer.headers.location);
      expect(link).toMatch(new RegExp(`^${s3.endpoint}/${s3.bucket}/api-\\d+/lists/${id}/evidence\\.zip\\?.*X-Amz-Expires=300`));
      const fetched = await fetch(link);
      expect(fetched.status).toBe(200);
      expect(fetched.headers.get('content-disposition')).toContain(`filename="people-${id}-Evidence.zip"`);
      expect(Object.keys(await unzip(Buffer.from(await fetched.arrayBuffer())))).toEqual([`people-${id}-Evidence.jsonl`]);
      // Gone: the same answer as a streamed download.
      await t.files.remove(id);
      expect((await get(`/v5/list/${id}/evidence`)).json()).toEqual({ error_code: 404, error_msg: 'Evidence file not found' });
    } finally {
      await t.close();
    }
  });

  it('refuses to start on a store it cannot use, saying which and what to check', async () => {
    const check =
      'check MAILSURE_LIST_STORE, MAILSURE_LIST_STORE_ENDPOINT, MAILSURE_LIST_STORE_REGION, MAILSURE_LIST_STORE_PATH_STYLE and the AWS credentials';
    const env = (store: string) => ({
      ...Object.fromEntries(Object.entries(s3.env('x')).filter(([name]) => name.startsWith('MAILSURE_'))),
      MAILSURE_LIST_STORE: store,
    });
    const dataDir = await mkdtemp(join(tmpdir(), 'mailsure-s3-refused-'));
    try {
      await expect(makeTestApp({ dataDir, env: env('s3://no-such-bucket/x') })).rejects.toThrow(
        `cannot use the object store s3://no-such-bucket/x at ${s3.endpoint} (HTTP 404: no such bucket); ${check}`,
      );
      const closed = await closedPort();
      await expect(
        makeTestApp({ dataDir, env: { ...env(`s3://${s3.bucket}`), MAILSURE_LIST_STORE_ENDPOINT: `http://127.0.0.1:${closed}` } }),
      ).rejects.toThrow(
        new RegExp(`^cannot use the object store s3://${s3.bucket} at http://127\\.0\\.0\\.1:${closed} \\(.*ECONNREFUSED.*\\); `),
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('an object store that stops answering (issue 31): a dependency outage, not a failure', () => {
  const STORE_DOWN = { error_code: 503, error_msg: 'The list store did not answer in time; try again' };

  it('answers a submit during the outage 503 with Retry-After and keeps no list; /readyz stays ready and says so', async () => {
    const { t, submitAnswer, submit, get, objects } = await appOnStore();
    try {
      await s3.stop();
      try {
        const refused = await submitAnswer();
        expect(refused.statusCode).toBe(503);
        expect(refused.headers['retry-after']).toBe('5');
        expect(refused.json()).toEqual(STORE_DOWN);
        expect((await get('/v5/list')).json()).toMatchObject({ lists: [], total: 0 });
        const ready = await t.app.inject({ url: '/readyz' });
        expect(ready.statusCode).toBe(200);
        expect(ready.json()).toMatchObject({
          status: 'ready',
          list_store: { state: 'failed', evidence: [expect.stringMatching(/^the object store: no answer/)] },
        });
      } finally {
        await s3.restart();
      }
      expect((await t.app.inject({ url: '/readyz' })).json()).toMatchObject({ status: 'ready', list_store: { state: 'ok' } });
      const id = await submit();
      await t.lists.idle();
      expect((await get(`/v5/list/${id}`)).json()).toMatchObject({ status: 'Results', records: 2 });
      expect((await get('/v5/list')).json()).toMatchObject({ total: 1 });
      expect(await objects()).toEqual([`lists/${id}/results.zip`, `lists/${id}/upload.csv`]);
    } finally {
      await t.close();
    }
  });

  it('holds a list that needs the store while processing and writing its results, then finishes it whole (its evidence too), billed once; downloads answer 503 meanwhile', async () => {
    const { t, submitAnswer } = await appOnStore();
    const full = (await t.key('full', { services: 'verification,enrichment,lists', fields: 'age', evidence: true })).key;
    const asFull = (path: string, method: 'GET' | 'POST' = 'GET') => t.app.inject({ method, url: path, headers: { api_key: full } });
    try {
      // report=true: the list waits Processed for its purchase, so the outage begins at a known point.
      const { list_id: id } = (await submitAnswer('?header=true&report=true&evidence=true', full)).json() as { list_id: number };
      await t.lists.idle();
      expect((await asFull(`/v5/list/${id}`)).json()).toMatchObject({ status: 'Processed' });
      // No working copy here: the results step must fetch the upload from the store (a worker on another machine).
      await rm(join(t.dataDir, 'lists', String(id)), { recursive: true, force: true });
      await s3.stop();
      try {
        expect((await asFull(`/v5/list/${id}/purchase`, 'POST')).statusCode).toBe(200);
        // Two waits logged (it tried again and waits again), or the list ended: whichever comes first.
        await until(
          async () =>
            t.logs.filter((line) => line.includes(`list ${id} waits: the list store did not answer`)).length >= 2 ||
            (await t.storage.lists.get(id))?.status !== 'Processing',
        );
        expect((await asFull(`/v5/list/${id}`)).json()).toMatchObject({ status: 'Processing' });
      } finally {
        await s3.restart();
      }
      await t.lists.idle();
      expect((await asFull(`/v5/list/${id}`)).json()).toMatchObject({ status: 'Results', records: 2 });
      const results = await asFull(`/v5/list/${id}/results`);
      expect(results.statusCode).toBe(200);
      const text = (await unzip(results.rawPayload))[`people-${id}-Service.csv`]!;
      expect(
        text
          .split(/\r?\n/)
          .filter(Boolean)
          .map((line) => line.split(',')[0]),
      ).toEqual(['Email', 'ann@example.com', 'not-an-address']);
      const evidence = (await unzip((await asFull(`/v5/list/${id}/evidence`)).rawPayload))[`people-${id}-Evidence.jsonl`]!;
      expect(
        evidence
          .trimEnd()
          .split('\n')
          .map((line) => (JSON.parse(line) as { row: number }).row),
      ).toEqual([1, 2]);
      const keyId = (await t.storage.keys.findByName('full'))!.id;
      expect((await t.storage.usage.totals(keyId)).list_record).toBe(2);

      await s3.stop();
      try {
        const refused = await asFull(`/v5/list/${id}/results`);
        expect(refused.statusCode).toBe(503);
        expect(refused.headers['retry-after']).toBe('5');
        expect(refused.json()).toEqual(STORE_DOWN);
        const evidenceRefused = await asFull(`/v5/list/${id}/evidence`);
        expect(evidenceRefused.statusCode).toBe(503);
        expect(evidenceRefused.headers['retry-after']).toBe('5');
        expect(evidenceRefused.json()).toEqual(STORE_DOWN);
      } finally {
        await s3.restart();
      }
      expect((await asFull(`/v5/list/${id}/results`)).statusCode).toBe(200);
      expect((await asFull(`/v5/list/${id}/evidence`)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('holds a list whose worker cannot fetch its upload, and runs it whole once the store is back', async () => {
    const prefix = `api-${++run}`;
    const env = Object.fromEntries(Object.entries(s3.env(prefix)).filter(([name]) => name.startsWith('MAILSURE_')));
    // An API process that runs no lists, and a worker on another machine (a data directory of its own).
    const api = await makeTestApp({ env, runLists: false });
    const worker = await makeTestApp({ env, storage: api.storage, listRetryMs: 50 });
    try {
      const key = (await api.key('acme', { services: 'verification,lists' })).key;
      const { payload, headers } = multipart([{ name: 'file', filename: 'people.csv', content: CSV }]);
      const submitted = await api.app.inject({
        method: 'POST',
        url: '/v5/list?header=true',
        headers: { ...headers, api_key: key },
        payload,
      });
      expect(submitted.statusCode).toBe(202);
      const id = (submitted.json() as { list_id: number }).list_id;
      await s3.stop();
      try {
        await worker.lists.resume();
        await until(
          async () =>
            worker.logs.filter((line) => line.includes(`list ${id} waits: the list store did not answer`)).length >= 2 ||
            (await api.storage.lists.get(id))?.status !== 'Pending',
        );
        expect((await api.storage.lists.get(id))?.status).toBe('Pending');
      } finally {
        await s3.restart();
      }
      await worker.lists.idle();
      const status = await api.app.inject({ url: `/v5/list/${id}`, headers: { api_key: key } });
      expect(status.json()).toMatchObject({ status: 'Results', records: 2 });
      const results = await api.app.inject({ url: `/v5/list/${id}/results`, headers: { api_key: key } });
      const text = (await unzip(results.rawPayload))[`people-${id}-Service.csv`]!;
      expect(
        text
          .split(/\r?\n/)
          .filter(Boolean)
          .map((line) => line.split(',')[0]),
      ).toEqual(['Email', 'ann@example.com', 'not-an-address']);
      expect((await api.storage.usage.totals((await api.storage.keys.findByName('acme'))!.id)).list_record).toBe(2);
    } finally {
      await worker.close();
      await api.close();
    }
  });
});

describe('an object store that stops answering with its connections open (paused, issue 31): the store deadline fires', () => {
  const STORE_DOWN = { error_code: 503, error_msg: 'The list store did not answer in time; try again' };
  /** Between the app and s3rver: paused, it accepts connections and forwards nothing, as a stopped server would. */
  let proxy: PausableProxy;
  // No silence over 300 ms on a store connection (30 s in production), so that each call the
  // store does not answer fails within a few seconds here, with the SDK's three attempts.
  const deadlines = { listStoreDeadlines: { connectionTimeout: 1_000, socketTimeout: 300 } };
  beforeAll(async () => {
    proxy = await startPausableProxy({ host: '127.0.0.1', port: Number(new URL(s3.endpoint).port) });
  });
  afterAll(() => proxy?.close());
  const viaProxy = () => ({ MAILSURE_LIST_STORE_ENDPOINT: `http://127.0.0.1:${proxy.port}` });

  it('answers a submit 503 with Retry-After and keeps no list; /readyz stays ready and names the store', async () => {
    const { t, submitAnswer, submit, get, objects } = await appOnStore(viaProxy(), deadlines);
    try {
      proxy.pause();
      try {
        const refused = await submitAnswer();
        expect(refused.statusCode).toBe(503);
        expect(refused.headers['retry-after']).toBe('5');
        expect(refused.json()).toEqual(STORE_DOWN);
        expect((await get('/v5/list')).json()).toMatchObject({ lists: [], total: 0 });
        const ready = await t.app.inject({ url: '/readyz' });
        expect(ready.statusCode).toBe(200);
        expect(ready.json()).toMatchObject({ status: 'ready', list_store: { state: 'failed' } });
      } finally {
        proxy.resume();
      }
      const id = await submit();
      await t.lists.idle();
      expect((await get(`/v5/list/${id}`)).json()).toMatchObject({ status: 'Results', records: 2 });
      expect((await get('/v5/list')).json()).toMatchObject({ total: 1 });
      expect(await objects()).toEqual([`lists/${id}/results.zip`, `lists/${id}/upload.csv`]);
    } finally {
      await t.close();
    }
  });

  it('holds a list whose results file cannot be stored, then finishes it whole, billed once', async () => {
    const { t, submitAnswer } = await appOnStore(viaProxy(), deadlines);
    const full = (await t.key('full', { services: 'verification,enrichment,lists', fields: 'age' })).key;
    const asFull = (path: string, method: 'GET' | 'POST' = 'GET') => t.app.inject({ method, url: path, headers: { api_key: full } });
    const waits = (id: number) => t.logs.filter((line) => line.includes(`list ${id} waits: the list store did not answer`)).length;
    try {
      // report=true: the list waits Processed for its purchase, so the outage begins at a known point.
      const { list_id: id } = (await submitAnswer('?header=true&report=true', full)).json() as { list_id: number };
      await t.lists.idle();
      expect((await asFull(`/v5/list/${id}`)).json()).toMatchObject({ status: 'Processed' });
      // The working copy is kept: the results are written here, and storing them is the call that meets the pause.
      proxy.pause();
      try {
        expect((await asFull(`/v5/list/${id}/purchase`, 'POST')).statusCode).toBe(200);
        // Two waits logged (each a call that ran into the deadline), or the list ended: whichever comes first.
        await until(async () => waits(id) >= 2 || (await t.storage.lists.get(id))?.status !== 'Processing');
        expect((await asFull(`/v5/list/${id}`)).json()).toMatchObject({ status: 'Processing' });
      } finally {
        proxy.resume();
      }
      await t.lists.idle();
      expect((await asFull(`/v5/list/${id}`)).json()).toMatchObject({ status: 'Results', records: 2 });
      const results = await asFull(`/v5/list/${id}/results`);
      expect(results.statusCode).toBe(200);
      const text = (await unzip(results.rawPayload))[`people-${id}-Service.csv`]!;
      expect(
        text
          .split(/\r?\n/)
          .filter(Boolean)
          .map((line) => line.split(',')[0]),
      ).toEqual(['Email', 'ann@example.com', 'not-an-address']);
      const keyId = (await t.storage.keys.findByName('full'))!.id;
      expect((await t.storage.usage.totals(keyId)).list_record).toBe(2);
      expect(t.logs.some((line) => line.includes('"dependency":"list_store"'))).toBe(true);
    } finally {
      await t.close();
    }
  });
});
