/**
 * The List API's routes (api-reference "List: …", decisions §6): each parses the request, calls the
 * list service (lists/list-service.ts) and renders its answer; refusals go to the error handler.
 * The key comes in the `api_key` header.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Static } from 'typebox';
import { errors } from '../../core/errors.js';
import type { ListResults, ListService } from '../../lists/list-service.js';
import { attachmentDisposition } from '../../lists/list-files.js';
import { valueOf } from '../error-handler.js';
import { errorResponses } from '../schemas/errors.js';
import {
  EvidenceFile,
  ListIdParams,
  ListPageAnswer,
  ListStatusAnswer,
  PageQuery,
  PurchaseBody,
  ResultsFile,
  SubmitAnswer,
  SubmitBody,
  SubmitQuery,
} from '../schemas/lists.js';

// Rate-limited like every keyed route: a key's rate holds on the List API too (status polling included).
const AUTH = { source: 'header', services: ['lists'], rateLimited: true } as const;
const auth = () => ({ auth: { ...AUTH, services: [...AUTH.services] } });
const listErrors = errorResponses(400, 401, 403, 404, 429);
const tags = ['lists'];

export async function listRoutes(app: FastifyInstance, lists: ListService): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { files: 1, fields: 20, fileSize: lists.listMaxBytes, parts: 21 } });
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
    routes(scope, lists);
  });
}

function routes(app: FastifyInstance, lists: ListService): void {
  app.post<{ Querystring: Static<typeof SubmitQuery> }>(
    '/v5/list',
    {
      config: { ...auth(), upload: true, openapiBody: { schema: SubmitBody, contentType: 'multipart/form-data', required: true } },
      schema: {
        operationId: 'submitList',
        tags,
        summary: 'Submit a list (multipart/form-data, file in the part `file`)',
        description:
          'Answers 202 once the file is stored; the list then runs in the background. Poll `GET /v5/list/{list_id}` or give `callback_url`.',
        querystring: SubmitQuery,
        response: { 202: SubmitAnswer, ...errorResponses(400, 401, 403, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const upload = request.isMultipart()
        ? async () => {
            // A body that is not multipart as announced (no boundary, broken part headers) is the
            // caller's mistake: 400, not our 500.
            const part = await request.file().catch((error: unknown) => {
              throw errors.malformedMultipart(error instanceof Error ? error.message : String(error));
            });
            if (!part) return part;
            // Heard from now on: the parser may fail the stream (a body that ends early) before
            // the service has piped it anywhere, and an unheard stream error would be a 500.
            let failure: Error | undefined;
            part.file.once('error', (error: Error) => (failure = error));
            return {
              field: part.fieldname,
              fileName: part.filename,
              stream: part.file,
              truncated: () => part.file.truncated,
              failure: () => failure ?? part.file.errored ?? undefined,
            };
          }
        : null;
      const submitted = valueOf(await lists.submit(request.apiKey!, request.query, upload));
      return reply
        .code(202)
        .header('location', `/v5/list/${submitted.listId}`)
        .send({ list_id: submitted.listId, size_bytes: submitted.sizeBytes });
    },
  );

  app.get<{ Querystring: Static<typeof PageQuery> }>(
    '/v5/list',
    {
      config: auth(),
      schema: {
        operationId: 'listLists',
        tags,
        summary: 'The key’s lists, newest first',
        querystring: PageQuery,
        response: { 200: ListPageAnswer, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const page = valueOf(await lists.page(request.apiKey!, request.query));
      return { lists: page.lists, page: page.page, per_page: page.perPage, total: page.total };
    },
  );

  app.get<{ Params: Static<typeof ListIdParams> }>(
    '/v5/list/:list_id',
    {
      config: auth(),
      schema: {
        operationId: 'getList',
        tags,
        summary: 'Status of one list',
        description: 'Poll no more often than `Retry-After` says (5 s) until the status is `Results` (or `Cancelled`, `Invalid`, `Error`).',
        params: ListIdParams,
        response: { 200: ListStatusAnswer, ...listErrors },
      },
    },
    async (request, reply) => {
      const status = valueOf(await lists.status(request.apiKey!, request.params.list_id));
      if (status.retryAfter) reply.header('retry-after', status.retryAfter);
      return status.body;
    },
  );

  app.delete<{ Params: Static<typeof ListIdParams> }>(
    '/v5/list/:list_id',
    {
      config: auth(),
      schema: {
        operationId: 'cancelList',
        tags,
        summary: 'Cancel a list',
        params: ListIdParams,
        response: { 200: ListStatusAnswer, ...listErrors, ...errorResponses(409) },
      },
    },
    async (request) => valueOf(await lists.cancel(request.apiKey!, request.params.list_id)),
  );

  app.post<{ Params: Static<typeof ListIdParams> }>(
    '/v5/list/:list_id/purchase',
    {
      config: { ...auth(), openapiBody: { schema: PurchaseBody, contentType: 'application/json', required: false } },
      schema: {
        operationId: 'purchaseList',
        tags,
        summary: 'Buy the results held back by report=true (idempotent)',
        params: ListIdParams,
        response: { 200: ListStatusAnswer, ...listErrors, ...errorResponses(409) },
      },
    },
    async (request) => valueOf(await lists.purchase(request.apiKey!, request.params.list_id, request.body)),
  );

  app.get<{ Params: Static<typeof ListIdParams> }>(
    '/v5/list/:list_id/results',
    {
      config: auth(),
      schema: {
        operationId: 'getListResults',
        tags,
        summary: 'The results file (application/zip), or a 302 to a short-lived link with MAILSURE_LIST_STORE_REDIRECT',
        description: '401 while the results are not ready yet (the list is not in `Results`).',
        params: ListIdParams,
        response: {
          200: ResultsFile,
          302: {
            description: 'A link to the results file, valid for a few minutes (the server runs with MAILSURE_LIST_STORE_REDIRECT=1)',
            type: 'null',
          },
          ...listErrors,
        },
      },
    },
    async (request, reply) => sendFile(reply, valueOf(await lists.results(request.apiKey!, request.params.list_id))),
  );

  app.get<{ Params: Static<typeof ListIdParams> }>(
    '/v5/list/:list_id/evidence',
    {
      config: auth(),
      schema: {
        operationId: 'getListEvidence',
        tags,
        summary: 'The evidence file of a list submitted with evidence=true (application/zip), or a 302 as for the results',
        description:
          '401 while the results are not ready yet, or when the key has no evidence permission (asked again at every download); 404 for a list without evidence.',
        params: ListIdParams,
        response: {
          200: EvidenceFile,
          302: {
            description: 'A link to the evidence file, valid for a few minutes (the server runs with MAILSURE_LIST_STORE_REDIRECT=1)',
            type: 'null',
          },
          ...listErrors,
        },
      },
    },
    async (request, reply) => sendFile(reply, valueOf(await lists.evidence(request.apiKey!, request.params.list_id))),
  );
}

/** A list's zip, streamed, or (MAILSURE_LIST_STORE_REDIRECT) a 302 to a short-lived link the object store serves, never cached. */
function sendFile(reply: FastifyReply, file: ListResults): FastifyReply {
  if ('link' in file) return reply.header('cache-control', 'no-store').redirect(file.link, 302);
  return reply
    .type('application/zip')
    .header('content-length', file.size)
    .header('content-disposition', attachmentDisposition(file.fileName))
    .send(file.stream);
}
