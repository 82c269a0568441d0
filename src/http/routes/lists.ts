/**
 * The List API (api-reference "List: …", decisions §6): submit (multipart, streamed to the list
 * files' store), status, the key's lists, cancel, purchase, results. The key comes in the `api_key`
 * header; another key's list is 404, like a list that does not exist.
 */
import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { ApiKeyRecord } from '../../accounts/key-config.js';
import type { UsageMeter } from '../../accounts/usage-meter.js';
import type { Clock } from '../../core/clock.js';
import { errors } from '../../core/errors.js';
import type { ListFiles } from '../../lists/list-files.js';
import type { ListRow, ListStore } from '../../lists/list-record.js';
import { applyEvent } from '../../lists/pipeline/list-events.js';
import type { ListQueue } from '../../lists/pipeline/list-queue.js';
import { renderList, retryAfter } from '../../lists/pipeline/list-resource.js';
import { parseSubmitQuery, parsePurchase } from '../../lists/pipeline/submit-params.js';
import { decideListName } from '../../lists/input/list-name.js';
import { inspectInput } from '../../lists/input/open-input.js';
import { checkCallbackTarget } from '../../lists/callback/callback-url.js';
import { resultsZipName } from '../../lists/results/column-names.js';
import { ErrorBody } from '../schemas/verification.js';
import { ListIdParams, PageQuery, SubmitQuery } from '../schemas/lists.js';

export interface ListRouteDeps {
  lists: ListStore;
  queue: ListQueue;
  meter: UsageMeter;
  clock: Clock;
  files: ListFiles;
  listMaxBytes: number;
  allowPrivateTargets: boolean;
}

const AUTH = { source: 'header', services: ['lists'] } as const;
const auth = () => ({ auth: { ...AUTH, services: [...AUTH.services] } });
const errorsOf = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

export async function listRoutes(app: FastifyInstance, deps: ListRouteDeps): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { files: 1, fields: 20, fileSize: deps.listMaxBytes, parts: 21 } });
    // The purchase body is optional, even with a JSON content type.
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      const text = String(body).trim();
      if (text === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch {
        done(errors.invalidJson(), undefined);
      }
    });
    routes(scope, deps);
  });
}

function routes(app: FastifyInstance, deps: ListRouteDeps): void {
  const ownList = async (request: FastifyRequest, id: string): Promise<ListRow> => {
    const list = await deps.lists.get(Number(id));
    if (!list || list.keyId !== request.apiKey!.id) throw errors.notFound('List not found');
    return list;
  };
  // A list with results (or none to process) is complete; a cancelled or failed one counts what it
  // committed. One query for a whole page of lists.
  const complete = (list: ListRow) => list.status === 'Results' || list.status === 'Invalid';
  const progressOf = async (lists: readonly ListRow[]): Promise<number[]> => {
    const committed = await deps.lists.committedRecords(lists.filter((l) => !complete(l)).map((l) => l.id));
    return lists.map((l) => (complete(l) ? l.records : (committed.get(l.id) ?? 0)));
  };
  const progress = async (list: ListRow) => (await progressOf([list]))[0]!;
  const called = (key: ApiKeyRecord) => deps.meter.record(key, {});

  app.post<{ Querystring: Static<typeof SubmitQuery> }>(
    '/v5/list',
    { config: auth(), schema: { summary: 'Submit a list (multipart/form-data, file in the part `file`)', querystring: SubmitQuery, response: { ...errorsOf, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody } } },
    async (request, reply) => {
      const key = request.apiKey!;
      const params = parseSubmitQuery(request.query);
      if (!params.ok) throw errors.badRequest(params.reason);
      if (!request.isMultipart()) throw errors.unsupportedMediaType();
      if (params.value.callbackUrl) {
        const target = await checkCallbackTarget(params.value.callbackUrl, { allowPrivate: deps.allowPrivateTargets });
        if (!target.ok) throw errors.badRequest(`Invalid parameter callback_url: ${target.reason}`);
      }
      const part = await request.file();
      if (!part || part.fieldname !== 'file') {
        part?.file.resume();
        throw errors.badRequest('Missing the file part (a multipart/form-data part named "file")');
      }
      const named = decideListName(params.value.name, part.filename);
      if (!named.ok) {
        part.file.resume();
        throw errors.unprocessable(named.reason);
      }

      const incoming = await deps.files.incomingPath();
      try {
        await pipeline(part.file, createWriteStream(incoming, { mode: 0o600 })); // personal data: owner-only
        if (part.file.truncated) throw errors.payloadTooLarge(`The file is larger than the limit of ${Math.floor(deps.listMaxBytes / 1024 / 1024)} MB`);
        const sizeBytes = (await stat(incoming)).size;
        const inspected = await inspectInput(incoming, named.value.format);
        if (!inspected.ok) throw errors.unprocessable(inspected.reason);
        const list = await deps.lists.create({
          keyId: key.id,
          name: named.value.name,
          format: named.value.format,
          delimiter: params.value.delimiter ?? null,
          header: params.value.header,
          emailColumn: params.value.emailColumn ?? null,
          report: params.value.report,
          fields: params.value.fields,
          callbackUrl: params.value.callbackUrl?.href ?? null,
          sizeBytes,
          createdAt: new Date(deps.clock.now()).toISOString(),
        });
        await deps.files.keepUpload(list.id, list.format, incoming);
        deps.queue.enqueue(list.id);
        called(key);
        return reply.code(202).header('location', `/v5/list/${list.id}`).send({ list_id: list.id, size_bytes: sizeBytes });
      } finally {
        await rm(incoming, { force: true });
      }
    },
  );

  app.get<{ Querystring: Static<typeof PageQuery> }>(
    '/v5/list',
    { config: auth(), schema: { summary: 'The key’s lists, newest first', querystring: PageQuery, response: errorsOf } },
    async (request) => {
      const page = pageOf(request.query);
      const { lists, total } = await deps.lists.listForKey(request.apiKey!.id, { limit: page.perPage, offset: (page.page - 1) * page.perPage });
      called(request.apiKey!);
      const done = await progressOf(lists);
      return { lists: lists.map((l, i) => renderList(l, done[i]!)), page: page.page, per_page: page.perPage, total };
    },
  );

  app.get<{ Params: Static<typeof ListIdParams> }>(
    '/v5/list/:list_id',
    { config: auth(), schema: { summary: 'Status of one list', params: ListIdParams, response: errorsOf } },
    async (request, reply) => {
      const list = await ownList(request, request.params.list_id);
      const wait = retryAfter(list);
      if (wait) reply.header('retry-after', wait);
      called(request.apiKey!);
      return renderList(list, await progress(list));
    },
  );

  app.delete<{ Params: Static<typeof ListIdParams> }>(
    '/v5/list/:list_id',
    { config: auth(), schema: { summary: 'Cancel a list', params: ListIdParams, response: { ...errorsOf, 409: ErrorBody } } },
    async (request) => {
      const list = await ownList(request, request.params.list_id);
      const cancelled = await applyEvent(deps.lists, list.id, { type: 'cancel' });
      if (!cancelled) throw errors.conflict(`The list is already finished (${(await deps.lists.get(list.id))?.status ?? list.status})`);
      called(request.apiKey!);
      return renderList(cancelled, await progress(cancelled));
    },
  );

  app.post<{ Params: Static<typeof ListIdParams> }>(
    '/v5/list/:list_id/purchase',
    { config: auth(), schema: { summary: 'Buy the results held back by report=true (idempotent)', params: ListIdParams, response: { ...errorsOf, 409: ErrorBody } } },
    async (request) => {
      const list = await ownList(request, request.params.list_id);
      const purchase = parsePurchase(request.body);
      if (!purchase.ok) throw errors.badRequest(purchase.reason);
      const bought = await applyEvent(deps.lists, list.id, { type: 'purchase' }, (l) => (l.purchase === null ? { purchase: purchase.value } : {}));
      if (!bought) throw errors.conflict(`A list in state ${(await deps.lists.get(list.id))?.status ?? list.status} cannot be purchased`);
      if (bought.status === 'Processing') deps.queue.enqueue(list.id);
      called(request.apiKey!);
      return renderList(bought, await progress(bought));
    },
  );

  app.get<{ Params: Static<typeof ListIdParams> }>(
    '/v5/list/:list_id/results',
    { config: auth(), schema: { summary: 'The results file (application/zip)', params: ListIdParams, response: errorsOf } },
    async (request, reply) => {
      const list = await ownList(request, request.params.list_id);
      if (list.status !== 'Results') throw errors.notReady(`The results are not ready (the list is ${list.status})`);
      const results = await deps.files.openResults(list.id);
      if (results === undefined) throw errors.notFound('Results file not found');
      called(request.apiKey!);
      const name = resultsZipName(list.name, list.id);
      return reply
        .type('application/zip')
        .header('content-length', results.size)
        .header('content-disposition', contentDisposition(name))
        .send(results.stream);
    },
  );
}

function pageOf(query: Static<typeof PageQuery>): { page: number; perPage: number } {
  const page = query.page === undefined ? 1 : Number(query.page);
  const perPage = query.per_page === undefined ? 20 : Number(query.per_page);
  if (!Number.isInteger(page) || page < 1 || page > 1_000_000) throw errors.invalidParameter('page', 'must be a whole number from 1');
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) throw errors.invalidParameter('per_page', 'must be a whole number from 1 to 100');
  return { page, perPage };
}

/** RFC 6266: a plain ASCII fallback, and the exact name percent-encoded. */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
