/**
 * The List API's operations (api-reference "List: …", decisions §6) over the list store, the list
 * files and the queue: submit, status, a key's lists, cancel, purchase, results, evidence. The HTTP routes,
 * and anything else that handles lists for a key, call these; none of them touches a reply.
 * Every refusal is a value holding its catalogue error (core/errors.ts), which the caller renders
 * (http/error-handler.ts); only our own failures throw. Another key's list is not found, like a
 * list that does not exist.
 */
import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ApiKeyRecord } from '../accounts/key-config.js';
import type { Clock } from '../core/clock.js';
import { errors, type AppError } from '../core/errors.js';
import { checkCallbackTarget } from './callback/callback-url.js';
import { decideListName } from './input/list-name.js';
import { inspectInput } from './input/open-input.js';
import { isListFilesUnavailable, type ListFiles, type ListOutput } from './list-files.js';
import type { ListRow, ListStore } from './list-record.js';
import { applyEvent } from './pipeline/list-events.js';
import type { ListQueue } from './pipeline/list-queue.js';
import { renderList, retryAfter, type ListBody } from './pipeline/list-resource.js';
import { parsePurchase, parseSubmitQuery, type SubmitParams } from './pipeline/submit-params.js';
import { resultsZipName } from './results/column-names.js';
import { evidenceZipName } from './results/evidence-file.js';

/** A value, or the catalogue error that refuses the call. */
export type ListResult<T> = { ok: true; value: T } | { ok: false; error: AppError };

/** Counts a key's call (the meter; list calls deliver no billable units themselves). */
export interface ListCallMeter {
  record(key: ApiKeyRecord, units: Record<string, never>): void;
}

export interface ListServiceDeps {
  lists: ListStore;
  queue: Pick<ListQueue, 'enqueue'>;
  meter: ListCallMeter;
  clock: Clock;
  files: ListFiles;
  /** Uploads above this are refused (the reader of the upload cuts it there and says so). */
  listMaxBytes: number;
  /** Callback URLs may point at private addresses (tests, closed networks). */
  allowPrivateTargets: boolean;
  /** Seconds a status answer tells the client to wait (`Retry-After`) while the list is not finished (MAILSURE_LIST_POLL_SECONDS). */
  pollSeconds: number;
  /** What one key may hold of this process and of the disk (decided per key, so one cannot starve the rest). */
  limits: {
    /** Submits one key may have in flight at once in this process (429 beyond). */
    uploadsPerKey: number;
    /** Lists one key may have waiting or running (ListStore.waitingForKey) at once, uploads in flight included (429 beyond). */
    waitingPerKey: number;
    /** Bytes of uploads one key may keep within the retention (413 beyond). */
    storedBytesPerKey: number;
    retentionDays: number;
  };
}

/** The file part of a submit, as the caller received it. */
export interface ListUpload {
  /** The form field that carried it: only `file` is a list. */
  field: string;
  fileName: string | undefined;
  stream: Readable;
  /** True once the stream was cut at `listMaxBytes`; read after the stream ended. */
  truncated(): boolean;
  /** Why the upload itself failed (a malformed or cut-off body), when it did. */
  failure?(): Error | undefined;
}

/**
 * The upload of a submit, read only once the parameters passed; null when the request carries no
 * form upload at all.
 */
export type UploadSource = (() => Promise<ListUpload | undefined>) | null;

export interface SubmittedList {
  listId: number;
  sizeBytes: number;
}

export interface ListStatusView {
  body: ListBody;
  /** Seconds to wait before asking again, while the list is not finished. */
  retryAfter?: string;
}

export interface ListPage {
  lists: ListBody[];
  page: number;
  perPage: number;
  total: number;
}

/** The results zip to send, or (an object store asked to) a short-lived link the client fetches it from. */
export type ListResults =
  | {
      /** The name the results zip is offered under. */
      fileName: string;
      size: number;
      stream: Readable;
    }
  | { fileName: string; link: string };

export interface ListService {
  /** The upload limit, for the caller that receives the upload. */
  readonly listMaxBytes: number;
  submit(key: ApiKeyRecord, query: Record<string, string | undefined>, upload: UploadSource): Promise<ListResult<SubmittedList>>;
  status(key: ApiKeyRecord, listId: string): Promise<ListResult<ListStatusView>>;
  /** The key's lists, newest first; `page` and `per_page` as the caller gave them. */
  page(key: ApiKeyRecord, query: { page?: string | undefined; per_page?: string | undefined }): Promise<ListResult<ListPage>>;
  cancel(key: ApiKeyRecord, listId: string): Promise<ListResult<ListBody>>;
  /** Buys the results held back by report=true (idempotent); `body` as the caller sent it. */
  purchase(key: ApiKeyRecord, listId: string, body: unknown): Promise<ListResult<ListBody>>;
  /** The results zip to send. */
  results(key: ApiKeyRecord, listId: string): Promise<ListResult<ListResults>>;
  /**
   * The evidence zip to send (a list submitted with `evidence=true` by a key with the evidence
   * permission); the permission is asked again now, since an operator may have withdrawn it.
   */
  evidence(key: ApiKeyRecord, listId: string): Promise<ListResult<ListResults>>;
}

const ok = <T>(value: T): ListResult<T> => ({ ok: true, value });
const DAY_MS = 86_400_000;
const storedMessage = (limit: number) =>
  `This upload would take the key past the ${limit >= 1024 ** 3 ? `${Math.round(limit / 1024 ** 3)} GB` : `${limit} bytes`} of lists it may keep until they pass the retention period`;
/** The store of list files did not answer: try again shortly (503 with Retry-After). */
const storeDown = () => errors.unavailableNow('The list store did not answer in time; try again');
const refuse = (error: AppError): { ok: false; error: AppError } => ({ ok: false, error });
const NO_EVIDENCE = 'This list has no evidence: it was submitted without evidence=true, or by a key without the evidence permission';

export function createListService(deps: ListServiceDeps): ListService {
  const ownList = async (key: ApiKeyRecord, id: string): Promise<ListResult<ListRow>> => {
    const list = await deps.lists.get(Number(id));
    if (!list || list.keyId !== key.id) return refuse(errors.notFound('List not found'));
    return ok(list);
  };
  // A list with results (or none to process) is complete; a cancelled or failed one counts what it
  // committed. One query for a whole page of lists.
  const complete = (list: ListRow) => list.status === 'Results' || list.status === 'Invalid';
  const progressOf = async (lists: readonly ListRow[]): Promise<number[]> => {
    const committed = await deps.lists.committedRecords(lists.filter((l) => !complete(l)).map((l) => l.id));
    return lists.map((l) => (complete(l) ? l.records : (committed.get(l.id) ?? 0)));
  };
  const rendered = async (list: ListRow) => renderList(list, (await progressOf([list]))[0]!);
  const called = (key: ApiKeyRecord) => deps.meter.record(key, {});
  const statusNow = async (list: ListRow) => (await deps.lists.get(list.id))?.status ?? list.status;
  /** Submits in flight per key, in this process. */
  const uploading = new Map<number, number>();

  /** A submit past its parameters and the key's upload slot: the upload itself, then the list. */
  async function receive(key: ApiKeyRecord, params: SubmitParams, upload: NonNullable<UploadSource>): Promise<ListResult<SubmittedList>> {
    const since = new Date(deps.clock.now() - deps.limits.retentionDays * DAY_MS).toISOString();
    const stored = await deps.lists.storedBytes(key.id, since);
    if (stored >= deps.limits.storedBytesPerKey) return refuse(errors.payloadTooLarge(storedMessage(deps.limits.storedBytesPerKey)));
    if (params.callbackUrl) {
      const target = await checkCallbackTarget(params.callbackUrl, { allowPrivate: deps.allowPrivateTargets });
      if (!target.ok) return refuse(errors.badRequest(`Invalid parameter callback_url: ${target.reason}`));
    }
    const part = await upload();
    if (!part || part.field !== 'file') {
      part?.stream.resume();
      return refuse(errors.badRequest('Missing the file part (a multipart/form-data part named "file")'));
    }
    const named = decideListName(params.name, part.fileName);
    if (!named.ok) {
      part.stream.resume();
      return refuse(errors.unprocessable(named.reason));
    }

    const incoming = await deps.files.incomingPath();
    // The upload failing (a body that ends early or breaks its framing) is the caller's fault;
    // the file we write failing is ours. (pipeline fails the file with the upload's error too,
    // so the upload's own failure is asked first.)
    try {
      try {
        await pipeline(part.stream, createWriteStream(incoming, { mode: 0o600 })); // personal data: owner-only
      } catch (error) {
        const upload = part.failure?.();
        if (upload) return refuse(errors.malformedMultipart(upload.message));
        throw error;
      }
      if (part.truncated())
        return refuse(errors.payloadTooLarge(`The file is larger than the limit of ${Math.floor(deps.listMaxBytes / 1024 / 1024)} MB`));
      const sizeBytes = (await stat(incoming)).size;
      if (stored + sizeBytes > deps.limits.storedBytesPerKey)
        return refuse(errors.payloadTooLarge(storedMessage(deps.limits.storedBytesPerKey)));
      const inspected = await inspectInput(incoming, named.value.format);
      if (!inspected.ok) return refuse(errors.unprocessable(inspected.reason));
      const list = await deps.lists.create({
        keyId: key.id,
        name: named.value.name,
        format: named.value.format,
        delimiter: params.delimiter ?? null,
        header: params.header,
        emailColumn: params.emailColumn ?? null,
        report: params.report,
        fields: params.fields,
        callbackUrl: params.callbackUrl?.href ?? null,
        // As /v5/ev's explain=true: a key without the permission gets the list, without evidence (docs/lists.md).
        evidence: params.evidence && key.evidence,
        sizeBytes,
        createdAt: new Date(deps.clock.now()).toISOString(),
      });
      try {
        await deps.files.keepUpload(list.id, list.format, incoming);
      } catch (error) {
        // No upload, no list: the caller is told to try again, and no list waits for a file it
        // will never have. (Should the delete fail too, the next start ends that list in Error.)
        await deps.lists.discard(list.id).catch(() => false);
        if (isListFilesUnavailable(error)) return refuse(storeDown());
        throw error;
      }
      deps.queue.enqueue(list);
      called(key);
      return ok({ listId: list.id, sizeBytes });
    } finally {
      await rm(incoming, { force: true });
    }
  }

  return {
    listMaxBytes: deps.listMaxBytes,

    async submit(key, query, upload) {
      const params = parseSubmitQuery(query);
      if (!params.ok) return refuse(errors.badRequest(params.reason));
      if (!upload) return refuse(errors.unsupportedMediaType());
      const inFlight = uploading.get(key.id) ?? 0;
      if (inFlight >= deps.limits.uploadsPerKey) {
        return refuse(errors.tooManyUploads(`This key already has ${inFlight} uploads in progress; send the next when one is done`));
      }
      uploading.set(key.id, inFlight + 1);
      try {
        // Uploads still arriving count too, so that concurrent submits cannot pass the cap together
        // (within this process; across processes the bound is the cap plus their uploads in flight).
        if ((await deps.lists.waitingForKey(key.id)) + inFlight >= deps.limits.waitingPerKey) {
          return refuse(errors.tooManyLists(deps.limits.waitingPerKey));
        }
        return await receive(key, params.value, upload);
      } finally {
        const left = (uploading.get(key.id) ?? 1) - 1;
        if (left > 0) uploading.set(key.id, left);
        else uploading.delete(key.id);
      }
    },
    async status(key, listId) {
      const own = await ownList(key, listId);
      if (!own.ok) return own;
      const wait = retryAfter(own.value, deps.pollSeconds);
      called(key);
      return ok({ body: await rendered(own.value), ...(wait ? { retryAfter: wait } : {}) });
    },

    async page(key, query) {
      const page = pageOf(query);
      if (!page.ok) return page;
      const { page: number, perPage } = page.value;
      const { lists, total } = await deps.lists.listForKey(key.id, { limit: perPage, offset: (number - 1) * perPage });
      called(key);
      const done = await progressOf(lists);
      return ok({ lists: lists.map((l, i) => renderList(l, done[i]!)), page: number, perPage, total });
    },

    async cancel(key, listId) {
      const own = await ownList(key, listId);
      if (!own.ok) return own;
      const cancelled = await applyEvent(deps.lists, own.value.id, { type: 'cancel' });
      if (!cancelled) return refuse(errors.conflict(`The list is already finished (${await statusNow(own.value)})`));
      // A cancelled list is never run or served again: its files go now. Should that fail, the
      // cancel still stands and retention deletes them later.
      await deps.files.remove(cancelled.id).catch(() => false);
      called(key);
      return ok(await rendered(cancelled));
    },

    async purchase(key, listId, body) {
      const own = await ownList(key, listId);
      if (!own.ok) return own;
      const purchase = parsePurchase(body);
      if (!purchase.ok) return refuse(errors.badRequest(purchase.reason));
      const bought = await applyEvent(deps.lists, own.value.id, { type: 'purchase' }, (l) =>
        l.purchase === null ? { purchase: purchase.value } : {},
      );
      if (!bought) return refuse(errors.conflict(`A list in state ${await statusNow(own.value)} cannot be purchased`));
      if (bought.status === 'Processing') deps.queue.enqueue(bought);
      called(key);
      return ok(await rendered(bought));
    },

    async results(key, listId) {
      const own = await ownList(key, listId);
      if (!own.ok) return own;
      const list = own.value;
      if (list.status !== 'Results') return refuse(errors.notReady(`The results are not ready (the list is ${list.status})`));
      return served(key, list, 'results', resultsZipName(list.name, list.id), 'Results file not found');
    },

    async evidence(key, listId) {
      const own = await ownList(key, listId);
      if (!own.ok) return own;
      if (!key.evidence) return refuse(errors.evidenceNotPermitted());
      const list = own.value;
      if (list.status !== 'Results') return refuse(errors.notReady(`The results are not ready (the list is ${list.status})`));
      if (!list.evidence) return refuse(errors.notFound(NO_EVIDENCE));
      return served(key, list, 'evidence', evidenceZipName(list.name, list.id), 'Evidence file not found');
    },
  };

  /** A finished list's file to send, or a link to it; `missing` when it is gone (retention). */
  async function served(
    key: ApiKeyRecord,
    list: ListRow,
    output: ListOutput,
    fileName: string,
    missing: string,
  ): Promise<ListResult<ListResults>> {
    if (deps.files.resultsLink) {
      const link = await deps.files.resultsLink(list.id, fileName, output).catch(unlessStoreDown);
      if (link === STORE_DOWN) return refuse(storeDown());
      if (link === undefined) return refuse(errors.notFound(missing));
      called(key);
      return ok({ fileName, link });
    }
    const file = await deps.files.openResults(list.id, output).catch(unlessStoreDown);
    if (file === STORE_DOWN) return refuse(storeDown());
    if (file === undefined) return refuse(errors.notFound(missing));
    called(key);
    return ok({ fileName, size: file.size, stream: file.stream });
  }
}

const STORE_DOWN = Symbol('store down');
/** An outage of the list store as a value; any other failure stays ours (500). */
function unlessStoreDown(error: unknown): typeof STORE_DOWN {
  if (isListFilesUnavailable(error)) return STORE_DOWN;
  throw error;
}

function pageOf(query: { page?: string | undefined; per_page?: string | undefined }): ListResult<{ page: number; perPage: number }> {
  const page = query.page === undefined ? 1 : Number(query.page);
  const perPage = query.per_page === undefined ? 20 : Number(query.per_page);
  if (!Number.isInteger(page) || page < 1 || page > 1_000_000)
    return refuse(errors.invalidParameter('page', 'must be a whole number from 1'));
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100)
    return refuse(errors.invalidParameter('per_page', 'must be a whole number from 1 to 100'));
  return ok({ page, perPage });
}
