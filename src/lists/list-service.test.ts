import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../accounts/key-config.js';
import type { Storage } from '../storage/interfaces.js';
import { openMemoryStorage } from '../storage/open-storage.js';
import { createListService, type ListResult, type ListService, type ListServiceDeps, type ListUpload } from './list-service.js';
import { createDirectoryListFiles } from './pipeline/directory-list-files.js';
import { tempDir } from './test-support.js';

const NOW = Date.parse('2026-03-04T05:06:07Z');
const key = { id: 7 } as ApiKeyRecord;
const other = { id: 8 } as ApiKeyRecord;

let storage: Storage;
let dir: Awaited<ReturnType<typeof tempDir>>;
let service: ListService;
let enqueued: number[];
let metered: number[];

beforeEach(async () => {
  storage = openMemoryStorage();
  dir = await tempDir();
  enqueued = [];
  metered = [];
  service = createListService(deps());
});
const deps = (): ListServiceDeps => ({
  lists: storage.lists,
  queue: { enqueue: (list) => void enqueued.push(list.id) },
  meter: { record: (k) => void metered.push(k.id) },
  clock: { now: () => NOW },
  files: createDirectoryListFiles(dir.dir),
  listMaxBytes: 1024 * 1024,
  allowPrivateTargets: false,
  pollSeconds: 5,
  limits: { uploadsPerKey: 2, waitingPerKey: 1000, storedBytesPerKey: 10_000, retentionDays: 30 },
});
afterEach(() => dir.cleanup());

const upload =
  (text: string, part: Partial<ListUpload> = {}) =>
  async (): Promise<ListUpload> => ({
    field: 'file',
    fileName: 'people.csv',
    stream: Readable.from([Buffer.from(text)]),
    truncated: () => false,
    ...part,
  });
const refusal = <T>(result: ListResult<T>) => (result.ok ? undefined : { status: result.error.status, message: result.error.message });
const value = <T>(result: ListResult<T>): T => {
  if (!result.ok) throw new Error(`refused: ${result.error.message}`);
  return result.value;
};
const submit = async (text = 'email\njane@example.com\n', query: Record<string, string> = {}) =>
  value(await service.submit(key, { header: 'true', ...query }, upload(text)));
const incomingLeft = async () => readdir(join(dir.dir, 'lists', 'incoming')).catch(() => []);

describe('per-key limits', () => {
  it('lets a key have only so many uploads in flight (429 with Retry-After), and never another key', async () => {
    const other = { id: 8 } as ApiKeyRecord;
    const releases: (() => void)[] = [];
    const slow = () => async (): Promise<ListUpload> => {
      const stream = new PassThrough();
      stream.write('email\njane@example.com\n');
      releases.push(() => stream.end());
      return { field: 'file', fileName: 'slow.csv', stream, truncated: () => false };
    };
    const inFlight = [service.submit(key, {}, slow()), service.submit(key, {}, slow())];
    await new Promise((r) => setImmediate(r));
    const third = await service.submit(key, {}, upload('a@b.co\n'));
    expect(refusal(third)).toEqual({ status: 429, message: 'This key already has 2 uploads in progress; send the next when one is done' });
    expect(third.ok ? undefined : third.error.headers).toEqual({ 'retry-after': '30' });
    expect((await service.submit(other, {}, upload('a@b.co\n'))).ok).toBe(true);
    for (const release of releases) release();
    expect((await Promise.all(inFlight)).every((r) => r.ok)).toBe(true);
    expect((await service.submit(key, {}, upload('a@b.co\n'))).ok).toBe(true);
  });

  it('refuses an upload that would take the key past its stored bytes (413), keeping nothing; old lists do not count', async () => {
    const big = `email\n${'x'.repeat(5_990)}@example.com\n`;
    expect((await service.submit(key, {}, upload(big))).ok).toBe(true);
    expect(refusal(await service.submit(key, {}, upload(big)))).toEqual({
      status: 413,
      message: 'This upload would take the key past the 10000 bytes of lists it may keep until they pass the retention period',
    });
    expect(await incomingLeft()).toEqual([]);
    expect((await storage.lists.listForKey(key.id, { limit: 10, offset: 0 })).total).toBe(1);
    // A list past the retention period no longer counts; at the limit already, refused unread.
    const first = (await storage.lists.get(1))!;
    await storage.lists.create({ ...first, sizeBytes: 1_000_000, createdAt: '2025-01-01T00:00:00.000Z' });
    expect((await service.submit(key, {}, upload('email\na@b.co\n'))).ok).toBe(true);
    await storage.lists.create({ ...first, sizeBytes: 4_500, createdAt: new Date(NOW).toISOString() });
    let read = false;
    expect(refusal(await service.submit(key, {}, async () => ((read = true), undefined)))?.status).toBe(413);
    expect(read).toBe(false);
  });
});

describe('submit', () => {
  it('stores the upload, creates the list for the key, queues it and counts the call', async () => {
    const submitted = await submit('email\njane@example.com\n', { name: 'mine.csv' });
    expect(submitted.sizeBytes).toBe(23);
    const list = await storage.lists.get(submitted.listId);
    expect(list).toMatchObject({
      keyId: 7,
      name: 'mine.csv',
      format: 'csv',
      header: true,
      status: 'Pending',
      createdAt: '2026-03-04T05:06:07.000Z',
    });
    const stored = await createDirectoryListFiles(dir.dir).uploadPath(submitted.listId, 'csv');
    expect(await readFile(stored, 'utf8')).toBe('email\njane@example.com\n');
    expect(enqueued).toEqual([submitted.listId]);
    expect(metered).toEqual([7]);
    expect(await incomingLeft()).toEqual([]);
  });

  it('refuses bad parameters before reading the upload, and a request without one', async () => {
    let read = false;
    const result = await service.submit(key, { header: 'maybe' }, async () => ((read = true), undefined));
    expect(refusal(result)).toEqual({ status: 400, message: 'Invalid parameter header: must be true or false' });
    expect(read).toBe(false);
    expect(refusal(await service.submit(key, {}, null))).toEqual({ status: 415, message: 'Invalid Content-Type' });
  });

  it('refuses a callback URL that points at a private address', async () => {
    const result = await service.submit(key, { callback_url: 'http://127.0.0.1/done' }, upload('a@b.co\n'));
    expect(refusal(result)?.status).toBe(400);
    expect(refusal(result)?.message).toMatch(/^Invalid parameter callback_url: /);
  });

  it('refuses a missing file part, a bad name, a cut upload and an unreadable file, keeping nothing', async () => {
    expect(refusal(await service.submit(key, {}, upload('x', { field: 'other' })))).toEqual({
      status: 400,
      message: 'Missing the file part (a multipart/form-data part named "file")',
    });
    expect(refusal(await service.submit(key, {}, async () => undefined))?.status).toBe(400);
    expect(refusal(await service.submit(key, { name: 'sheet.xlsx' }, upload('a@b.co\n')))).toEqual({
      status: 422,
      message: 'The file name must end in .csv, .txt or .zip (got "sheet.xlsx")',
    });
    expect(refusal(await service.submit(key, {}, upload('a@b.co\n', { truncated: () => true })))).toEqual({
      status: 413,
      message: 'The file is larger than the limit of 1 MB',
    });
    expect(refusal(await service.submit(key, {}, upload('')))?.status).toBe(422);
    expect((await storage.lists.listForKey(7, { limit: 10, offset: 0 })).total).toBe(0);
    expect(enqueued).toEqual([]);
    expect(metered).toEqual([]);
    expect(await incomingLeft()).toEqual([]);
  });
});

describe('status, page, cancel, purchase, results', () => {
  it('answers the list with Retry-After while it runs; another key’s list is not found', async () => {
    const { listId } = await submit();
    const status = value(await service.status(key, String(listId)));
    expect(status.retryAfter).toBe('5');
    expect(status.body).toMatchObject({ list_id: listId, name: 'people.csv', status: 'Pending', size_bytes: 23 });
    expect(refusal(await service.status(other, String(listId)))).toEqual({ status: 404, message: 'List not found' });
    expect(refusal(await service.status(key, '999'))).toEqual({ status: 404, message: 'List not found' });
    await storage.lists.update(listId, { status: 'Results', records: 1 });
    expect(value(await service.status(key, String(listId))).retryAfter).toBeUndefined();
  });

  it('tells the seconds the operator set (MAILSURE_LIST_POLL_SECONDS) instead of 5', async () => {
    const sooner = createListService({ ...deps(), pollSeconds: 1 });
    const { listId } = await submit();
    expect(value(await sooner.status(key, String(listId))).retryAfter).toBe('1');
    await storage.lists.update(listId, { status: 'Results', records: 1 });
    expect(value(await sooner.status(key, String(listId))).retryAfter).toBeUndefined();
  });

  it('pages the key’s lists newest first and checks the page parameters', async () => {
    const first = await submit();
    const second = await submit();
    await submit(undefined, {});
    const page = value(await service.page(key, { page: '1', per_page: '2' }));
    expect(page).toMatchObject({ page: 1, perPage: 2, total: 3 });
    expect(page.lists.map((l) => l.list_id)).toEqual([second.listId + 1, second.listId]);
    expect(value(await service.page(key, { page: '2', per_page: '2' })).lists.map((l) => l.list_id)).toEqual([first.listId]);
    expect(value(await service.page(other, {})).total).toBe(0);
    expect(refusal(await service.page(key, { per_page: '101' }))).toEqual({
      status: 400,
      message: 'Invalid parameter per_page: must be a whole number from 1 to 100',
    });
    expect(refusal(await service.page(key, { page: '0' }))).toEqual({
      status: 400,
      message: 'Invalid parameter page: must be a whole number from 1',
    });
  });

  it('cancels (again harmlessly) and deletes the list’s files; a list with results is a conflict', async () => {
    const { listId } = await submit();
    const kept = await submit();
    expect(value(await service.cancel(key, String(listId)))).toMatchObject({ list_id: listId, status: 'Cancelled' });
    expect(await readdir(join(dir.dir, 'lists'))).toEqual(expect.not.arrayContaining([String(listId)]));
    expect(await readdir(join(dir.dir, 'lists'))).toEqual(expect.arrayContaining([String(kept.listId)]));
    expect(value(await service.cancel(key, String(listId)))).toMatchObject({ status: 'Cancelled' });
    const done = await submit();
    await storage.lists.update(done.listId, { status: 'Results', records: 1 });
    expect(refusal(await service.cancel(key, String(done.listId)))).toEqual({
      status: 409,
      message: 'The list is already finished (Results)',
    });
    expect(refusal(await service.cancel(other, String(listId)))?.status).toBe(404);
  });

  it('checks the purchase body after the list, remembers a purchase and refuses a cancelled list', async () => {
    const { listId } = await submit();
    expect(refusal(await service.purchase(other, String(listId), []))).toEqual({ status: 404, message: 'List not found' });
    expect(refusal(await service.purchase(key, String(listId), []))).toEqual({
      status: 400,
      message: 'Invalid purchase: the body must be a JSON object',
    });
    // A list with no services waiting settles at once: bought, it goes (back) to the queue.
    expect(value(await service.purchase(key, String(listId), undefined))).toMatchObject({ list_id: listId, status: 'Processing' });
    expect((await storage.lists.get(listId))?.purchase).toEqual({});
    expect(enqueued).toEqual([listId, listId]);
    await service.cancel(key, String(listId));
    expect(refusal(await service.purchase(key, String(listId), {}))).toEqual({
      status: 409,
      message: 'A list in state Cancelled cannot be purchased',
    });
  });

  it('hands out the results zip of a list in Results, under the results name', async () => {
    const { listId } = await submit();
    expect(refusal(await service.results(key, String(listId)))).toEqual({
      status: 401,
      message: 'The results are not ready (the list is Pending)',
    });
    await storage.lists.update(listId, { status: 'Results', records: 1 });
    expect(refusal(await service.results(key, String(listId)))).toEqual({ status: 404, message: 'Results file not found' });
    const files = createDirectoryListFiles(dir.dir);
    await writeFile(await files.resultsPath(listId), 'zip bytes');
    await files.keepResults(listId);
    metered = [];
    const results = value(await service.results(key, String(listId)));
    if ('link' in results) throw new Error('a directory offers no link');
    expect(results.fileName).toMatch(/\.zip$/);
    expect(results.size).toBe(9);
    const chunks: Buffer[] = [];
    for await (const chunk of results.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('zip bytes');
    expect(metered).toEqual([7]);
  });
});
