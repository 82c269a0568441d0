import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newList } from '../../storage/contract/fixtures.js';
import { createKey } from '../../accounts/key-admin.js';
import { systemClock } from '../../core/clock.js';
import { createLogger } from '../../core/logger.js';
import type { EnrichService } from '../../enrichment/enrich-service.js';
import type { AppendService } from '../../identity/append/index.js';
import type { Storage } from '../../storage/interfaces.js';
import { openMemoryStorage } from '../../storage/open-storage.js';
import type { Verdict } from '../../verification/verdict.js';
import type { VerifyService } from '../../verification/verify-service.js';
import { createDomainScheduler } from './domain-scheduler.js';
import { createDirectoryListFiles } from './directory-list-files.js';
import { ListFilesUnavailable, listDir, uploadPath, type ListFiles } from '../list-files.js';
import { createFairGate } from './fair-gate.js';
import { createListRunner } from './list-runner.js';
import { sweepExpiredLists } from './retention.js';
import { until } from '../../../test/helpers/until.js';

const logger = createLogger('silent');
const unused = { enrich: {} as EnrichService, append: {} as AppendService };

let storage: Storage;
let dataDir: string;
let keyId: number;
beforeEach(async () => {
  storage = openMemoryStorage();
  dataDir = await mkdtemp(join(tmpdir(), 'mailsure-runner-'));
  keyId = (await createKey(storage.keys, 'acme', { services: 'verification,lists' })).record.id;
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

async function submit(records: number, createdAt = new Date().toISOString()) {
  const list = await storage.lists.create(newList(keyId, { name: 'l.csv', fields: null, sizeBytes: 1, createdAt }));
  await mkdir(listDir(dataDir, list.id), { recursive: true });
  const lines = ['email', ...Array.from({ length: records }, (_, i) => `user${i}@d${i % 7}.example`)];
  await writeFile(uploadPath(dataDir, list.id, 'csv'), lines.join('\n'));
  return list.id;
}

function runner(
  verify: VerifyService,
  finished: number[] = [],
  worker?: string,
  extra: Partial<Parameters<typeof createListRunner>[0]> = {},
) {
  return createListRunner({
    ...(worker ? { worker } : {}),
    waitMs: 20,
    store: storage.lists,
    keys: storage.keys,
    usage: storage.usage,
    files: createDirectoryListFiles(dataDir),
    clock: systemClock,
    logger,
    chunk: { verify, ...unused, scheduler: createDomainScheduler({ concurrency: 8, perDomain: 2 }), verifyTimeoutMs: 1_000 },
    onFinished: (list) => finished.push(list.id),
    chunksInFlight: 1,
    ...extra,
  });
}

const valid = (input: string): Verdict => ({ address: input, code: 50, roleAccount: false, domainType: 'biz' });

describe('list runner', () => {
  it("shares the process's chunk slots between keys: one key holds at most its cap, another key's list runs beside it", async () => {
    const slow = await submit(500);
    const otherKey = (await createKey(storage.keys, 'other', { services: 'verification,lists' })).record.id;
    const quick = await storage.lists.create(newList(otherKey, { name: 'l.csv', fields: null, sizeBytes: 1 }));
    await mkdir(listDir(dataDir, quick.id), { recursive: true });
    await writeFile(
      uploadPath(dataDir, quick.id, 'csv'),
      ['email', ...Array.from({ length: 100 }, (_, i) => `b${i}@d${i % 7}.example`)].join('\n'),
    );
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let slowAsked = 0;
    const verify: VerifyService = {
      async verify(input) {
        if (input.startsWith('user')) {
          slowAsked += 1;
          await held;
        }
        return valid(input);
      },
    } as VerifyService;
    // Room in the domain scheduler for every task: only the chunk slots bound the slow list.
    const scheduler = createDomainScheduler({ concurrency: 1_000, perDomain: 1_000 });
    const run = runner(verify, [], undefined, {
      chunksInFlight: 4,
      gate: createFairGate({ total: 2, perKey: 1 }),
      chunk: { verify, ...unused, scheduler, verifyTimeoutMs: 1_000 },
    });
    const slowRun = run.run(slow);
    await run.run(quick.id);
    expect((await storage.lists.get(quick.id))!.status).toBe('Results');
    // One chunk of 50 rows of the slow list was asked, not the four its chunksInFlight allow.
    expect(slowAsked).toBe(50);
    release();
    await slowRun;
    expect((await storage.lists.get(slow))!.status).toBe('Results');
  });

  it('advances completed_count chunk by chunk while the service runs', async () => {
    const id = await submit(500);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let seen = 0;
    const run = runner({
      async verify(input) {
        seen += 1;
        if (seen > 150) await gate;
        return valid(input);
      },
    }).run(id);
    await until(async () => (await storage.lists.chunkCounts(id)).length >= 3, 'three chunks committed');
    const partial = (await storage.lists.chunkCounts(id)).reduce((n, c) => n + c.records, 0);
    expect(partial).toBe(150);
    expect((await storage.lists.get(id))!.services.email_validation!.status).toBe('Processing');
    release();
    await run;
    const done = (await storage.lists.get(id))!;
    expect(done.status).toBe('Results');
    expect(done.services.email_validation).toMatchObject({ status: 'Completed', inputCount: 500, completedCount: 500 });
  });

  it('resumes from the committed chunks without verifying them again', async () => {
    const id = await submit(300);
    const verified: string[] = [];
    let calls = 0;
    // The same worker name before and after, as a restarted `serve` has: its own leases are its own.
    await runner(
      {
        async verify(input) {
          calls += 1;
          if (calls > 120) throw new Error('process died');
          verified.push(input);
          return valid(input);
        },
      },
      [],
      'serve',
    ).run(id);
    // The first run failed its list; a restart finds it unfinished only if the failure was a crash,
    // so put the list back as a crashed process leaves it.
    expect((await storage.lists.get(id))!.status).toBe('Error');
    await storage.lists.update(id, {
      status: 'Pending',
      error: null,
      services: { email_validation: { status: 'Processing', inputCount: 300 } },
    });
    const committed = (await storage.lists.chunkCounts(id)).reduce((n, c) => n + c.records, 0);
    expect(committed).toBe(100);
    const again: string[] = [];
    await runner(
      {
        async verify(input) {
          again.push(input);
          return valid(input);
        },
      },
      [],
      'serve',
    ).run(id);
    expect(again).toHaveLength(200);
    expect(again).not.toContain('user0@d0.example');
    expect((await storage.lists.get(id))!.status).toBe('Results');
  });

  it('ends in Error with a reason and calls back when a service fails', async () => {
    const id = await submit(10);
    const finished: number[] = [];
    await runner({ verify: () => Promise.reject(new Error('boom')) }, finished).run(id);
    const list = (await storage.lists.get(id))!;
    expect(list.status).toBe('Error');
    expect(list.error).toBe('An internal error stopped the list; it can be submitted again');
    expect(list.services.email_validation!.status).toBe('Error');
    expect(finished).toEqual([id]);
  });

  it('waits out a dependency that does not answer in time and finishes the list whole, never in Error', async () => {
    const id = await submit(300);
    class StalledDatabase extends Error {}
    const commitChunk = storage.lists.commitChunk.bind(storage.lists);
    let refusals = 2;
    storage.lists.commitChunk = (listId, chunk) =>
      refusals-- > 0 ? Promise.reject(new StalledDatabase('lock timeout')) : commitChunk(listId, chunk);
    const finished: number[] = [];
    const run = runner({ verify: async (input) => valid(input) }, finished, undefined, {
      isTransient: (error) => error instanceof StalledDatabase,
      transientRetryMs: 5,
    });
    await run.run(id);
    const list = (await storage.lists.get(id))!;
    expect(refusals).toBeLessThan(0);
    expect(list.status).toBe('Results');
    expect(list.services.email_validation).toMatchObject({ status: 'Completed', inputCount: 300, completedCount: 300 });
    expect(finished).toEqual([id]);
  });

  /** The directory store, whose `uploadPath` and `keepResults` fail as an object store that does not answer, `down()` times each. */
  function flakyFiles(down: { upload: number; results: number }) {
    const files = createDirectoryListFiles(dataDir);
    const wrapped: ListFiles = {
      ...files,
      uploadPath: (id, format) =>
        down.upload-- > 0
          ? Promise.reject(new ListFilesUnavailable('the object store did not answer: ECONNREFUSED'))
          : files.uploadPath(id, format),
      keepResults: (id) =>
        down.results-- > 0
          ? Promise.reject(new ListFilesUnavailable('the object store did not answer: ECONNREFUSED'))
          : files.keepResults(id),
    };
    return wrapped;
  }

  it('waits out a list store that does not answer, at parse and at the results write, and finishes whole, billed once', async () => {
    const id = await submit(120);
    const down = { upload: 2, results: 3 };
    const finished: number[] = [];
    const verified: string[] = [];
    const verify: VerifyService = {
      async verify(input) {
        verified.push(input);
        return valid(input);
      },
    };
    await runner(verify, finished, undefined, { files: flakyFiles(down), transientRetryMs: 5, storeWaitMs: 60_000 }).run(id);
    const list = (await storage.lists.get(id))!;
    expect(down.upload).toBeLessThan(0);
    expect(down.results).toBe(-1);
    expect(list.status).toBe('Results');
    expect(list.services.email_validation).toMatchObject({ status: 'Completed', inputCount: 120, completedCount: 120 });
    // Every row verified once (no chunk redone for the results write), billed once.
    expect(verified).toHaveLength(120);
    expect(new Set(verified).size).toBe(120);
    expect((await storage.usage.totals(keyId)).list_record).toBe(120);
    expect(finished).toEqual([id]);
  });

  it('ends in Error saying so once the list store stayed silent for MAILSURE_LIST_STORE_WAIT_MINUTES', async () => {
    const id = await submit(20);
    let now = Date.parse('2026-01-01T00:00:00Z');
    // Each failure moves the clock on ten minutes: the third wait passes the 25 minutes.
    const files = flakyFiles({ upload: 0, results: 1_000 });
    const keepResults = files.keepResults;
    files.keepResults = (listId) => {
      now += 10 * 60_000;
      return keepResults(listId);
    };
    const finished: number[] = [];
    await runner({ verify: async (input) => valid(input) }, finished, undefined, {
      files,
      clock: { now: () => now },
      transientRetryMs: 1,
      storeWaitMs: 25 * 60_000,
    }).run(id);
    const list = (await storage.lists.get(id))!;
    expect(list.status).toBe('Error');
    expect(list.error).toBe('The list store did not answer for 25 minutes; the list can be submitted again');
    expect(finished).toEqual([id]);
  });

  it('stops at the next chunk when the list is cancelled', async () => {
    const id = await submit(400);
    let calls = 0;
    await runner({
      async verify(input) {
        calls += 1;
        if (calls === 50) await storage.lists.update(id, { status: 'Cancelled' });
        return valid(input);
      },
    }).run(id);
    expect((await storage.lists.get(id))!.status).toBe('Cancelled');
    expect(calls).toBeLessThan(400);
  });
});

describe('rows a provider throttles', () => {
  const throttled = (input: string): Verdict => ({ address: input, code: 20, roleAccount: false, limit: 'throttled' });
  const holdBack = { firstWaitMs: 5, longestWaitMs: 10, totalMs: 60_000 };
  /** d0's rows are throttled until `letUp()`; every other row is answered at once. */
  function provider() {
    let throttling = true;
    const firstAsks = new Set<string>();
    let heldAsks = 0;
    const verify: VerifyService = {
      async verify(input) {
        firstAsks.add(input);
        if (input.endsWith('@d0.example') && throttling) {
          heldAsks += 1;
          return throttled(input);
        }
        return valid(input);
      },
    };
    return { verify, firstAsks, held: () => heldAsks, letUp: () => void (throttling = false) };
  }
  it('are asked again until answered; chunks waiting for them leave room for the next ones, up to eight times as many', async () => {
    // 10 chunks of 50, each with rows at d0 (i % 7): none can commit while d0 throttles.
    const id = await submit(500);
    const p = provider();
    const run = runner(p.verify, [], undefined, {
      chunk: {
        verify: p.verify,
        ...unused,
        scheduler: createDomainScheduler({ concurrency: 8, perDomain: 2 }),
        verifyTimeoutMs: 1_000,
        holdBack,
      },
    }).run(id);
    // One chunk in flight, but the chunks holding rows back make room: eight of them start.
    await until(() => p.firstAsks.size >= 400);
    const heldSoFar = p.held();
    await until(() => p.held() >= heldSoFar + 200);
    expect(p.firstAsks.size).toBe(400);
    expect(await storage.lists.chunkCounts(id)).toEqual([]);
    p.letUp();
    await run;
    const list = (await storage.lists.get(id))!;
    expect(list.status).toBe('Results');
    expect(list.services.email_validation!.reporting).toMatchObject({ statuses: { Valid: 500, Unknown: 0 } });
    expect(list.services.email_validation!.reporting).not.toHaveProperty('verification_limited');
  });

  it('a list cancelled while its rows are held back stops at once, its held chunks not committed', async () => {
    const id = await submit(100);
    const p = provider();
    const run = runner(p.verify, [], undefined, {
      chunk: {
        verify: p.verify,
        ...unused,
        scheduler: createDomainScheduler({ concurrency: 8, perDomain: 2 }),
        verifyTimeoutMs: 1_000,
        holdBack: { firstWaitMs: 60_000, longestWaitMs: 60_000, totalMs: 3_600_000 },
      },
    }).run(id);
    await until(() => p.firstAsks.size === 100);
    await storage.lists.update(id, { status: 'Cancelled' });
    await run;
    expect((await storage.lists.get(id))!.status).toBe('Cancelled');
    expect(await storage.lists.chunkCounts(id)).toEqual([]);
    expect(p.held()).toBe(15);
  });
});

describe('several workers on one list', () => {
  it('share the chunks: each record verified once, results as one worker gives them', async () => {
    const id = await submit(600);
    const seen: string[] = [];
    const verify: VerifyService = {
      async verify(input) {
        seen.push(input);
        await new Promise((r) => setImmediate(r));
        return valid(input);
      },
    };
    await Promise.all([runner(verify, [], 'a').run(id), runner(verify, [], 'b').run(id)]);
    expect((await storage.lists.get(id))!.status).toBe('Results');
    expect(seen).toHaveLength(600);
    expect(new Set(seen).size).toBe(600);
    const chunks = await storage.lists.chunkCounts(id);
    expect(chunks.map((c) => c.index)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    const record = await storage.keys.findByName('acme');
    expect((await storage.usage.totals(record!.id)).list_record).toBe(600);
  });

  it('share the chunks when one runner runs the same list twice at once (a queue job per share)', async () => {
    const id = await submit(600);
    const seen: string[] = [];
    const verify: VerifyService = {
      async verify(input) {
        seen.push(input);
        await new Promise((r) => setImmediate(r));
        return valid(input);
      },
    };
    const finished: number[] = [];
    const one = runner(verify, finished, 'host:1');
    await Promise.all([one.run(id), one.run(id), one.run(id)]);
    const list = (await storage.lists.get(id))!;
    expect(list.status).toBe('Results');
    expect(list.error).toBeNull();
    expect(seen).toHaveLength(600);
    expect(new Set(seen).size).toBe(600);
    expect(finished).toEqual([id]);
    const record = await storage.keys.findByName('acme');
    expect((await storage.usage.totals(record!.id)).list_record).toBe(600);
  });

  it('take over the chunks of a worker whose lease ran out', async () => {
    const id = await submit(200);
    const now = Date.now();
    // A worker that died holding chunk 1 and the results step.
    await storage.lists.claim(id, 1, 'ghost', new Date(now).toISOString(), new Date(now + 300).toISOString());
    const seen: string[] = [];
    await runner({ verify: async (input) => (seen.push(input), valid(input)) }, [], 'survivor').run(id);
    expect((await storage.lists.get(id))!.status).toBe('Results');
    expect(seen).toHaveLength(200);
  });
});

describe('retention', () => {
  it('deletes the files and forgets the records of finished lists older than the retention, keeping the list and its reports', async () => {
    const old = await submit(3, '2020-01-01T00:00:00.000Z');
    const fresh = await submit(1);
    const oldRunning = await submit(1, '2020-01-01T00:00:00.000Z');
    for (const id of [old, fresh]) await runner({ verify: async (input) => valid(input) }).run(id);
    expect((await storage.lists.chunkResults(old, 0, 1))[0]!.results).toContain('user0@d0.example');
    expect(
      await sweepExpiredLists({ store: storage.lists, files: createDirectoryListFiles(dataDir), retentionDays: 30, clock: systemClock }),
    ).toBe(1);
    const { stat } = await import('node:fs/promises');
    await expect(stat(listDir(dataDir, old))).rejects.toThrow();
    await expect(stat(listDir(dataDir, fresh))).resolves.toBeDefined();
    // A list not finished yet keeps its upload: deleting it would leave it nothing to run on.
    await expect(stat(listDir(dataDir, oldRunning))).resolves.toBeDefined();
    const kept = (await storage.lists.get(old))!;
    expect(kept.status).toBe('Results');
    expect(kept.services.email_validation?.reporting).toBeDefined();
    expect((await storage.lists.chunkResults(old, 0, 1)).map((c) => c.results)).toEqual(['']);
    expect((await storage.lists.chunkResults(fresh, 0, 1))[0]!.results).toContain('user0@d0.example');
    expect(
      await sweepExpiredLists({ store: storage.lists, files: createDirectoryListFiles(dataDir), retentionDays: 30, clock: systemClock }),
    ).toBe(0);
  });

  it('deletes uploads a killed process left in incoming/ once they are a day old', async () => {
    const { utimes } = await import('node:fs/promises');
    await mkdir(join(dataDir, 'lists', 'incoming'), { recursive: true });
    const stale = join(dataDir, 'lists', 'incoming', 'stale');
    const current = join(dataDir, 'lists', 'incoming', 'current');
    await writeFile(stale, 'x');
    await writeFile(current, 'x');
    await utimes(stale, new Date('2020-01-01'), new Date('2020-01-01'));
    await sweepExpiredLists({ store: storage.lists, files: createDirectoryListFiles(dataDir), retentionDays: 30, clock: systemClock });
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(join(dataDir, 'lists', 'incoming'))).toEqual(['current']);
  });
});
