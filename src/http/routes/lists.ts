/**
 * The List API's routes (api-reference "List: …", decisions §6): each parses the request, calls the
 * list service (lists/list-service.ts) and renders its answer; refusals go to the error handler.
 * The key comes in the `api_key` header.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { errors } from '../../core/errors.js';
import type { ListService } from '../../lists/list-service.js';
import { attachmentDisposition } from '../../lists/list-files.js';
import { valueOf } from '../error-handler.js';
import { ErrorBody } from '../schemas/verification.js';
import { ListIdParams, PageQuery, SubmitQuery } from '../schemas/lists.js';

// Rate-limited like every keyed route: a key's rate holds on the List API too (status polling included).
const AUTH = { source: 'header', services: ['lists'], rateLimited: true } as const;
const auth = () => ({ auth: { ...AUTH, services: [...AUTH.services] } });
const errorsOf = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

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
    { config: auth(), schema: { summary: 'Submit a list (multipart/form-data, file in the part `file`)', querystring: SubmitQuery, response: { ...errorsOf, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody } } },
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
            return { field: part.fieldname, fileName: part.filename, stream: part.file, truncated: () => part.file.truncated, failure: () => failure ?? part.file.errored ?? undefined };
          }
        : null;
      const submitted = valueOf(await lists.submit(request.apiKey!, request.query, upload));
      return reply.code(202).header('location', `/v5/list/${submitted.listId}`).send({ list_id: submitted.listId, size_bytes: submitted.sizeBytes });
    },
  );

  app.get<{ Querystring: Static<typeof PageQuery> }>(
    '/v5/list',
    { config: auth(), schema: { summary: 'The key’s lists, newest first', querystring: PageQuery, response: errorsOf } },
    async (request) => {
      const page = valueOf(await lists.page(request.apiKey!, request.query));
      return { lists: page.lists, page: page.page, per_page: page.perPage, total: page.total };
    },
  );

  app.get<{ Params: Static<typeof ListIdParams> }>(
    '/v5/list/:list_id',
    { config: auth(), schema: { summary: 'Status of one list', params: ListIdParams, response: errorsOf } },
    async (request, reply) => {
      const status = valueOf(await lists.status(request.apiKey!, request.params.list_id));
      if (status.retryAfter) reply.header('retry-after', status.retryAfter);
      return status.body;
    },
  );

  app.delete<{ Params: Static<typeof ListIdParams> }>(
    '/v5/list/:list_id',
    { config: auth(), schema: { summary: 'Cancel a list', params: ListIdParams, response: { ...errorsOf, 409: ErrorBody } } },
    async (request) => valueOf(await lists.cancel(request.apiKey!, request.params.list_id)),
  );

  app.post<{ Params: Static<typeof ListIdParams> }>(
    '/v5/list/:list_id/purchase',
    { config: auth(), schema: { summary: 'Buy the results held back by report=true (idempotent)', params: ListIdParams, response: { ...errorsOf, 409: ErrorBody } } },
    async (request) => valueOf(await lists.purchase(request.apiKey!, request.params.list_id, request.body)),
  );

  app.get<{ Params: Static<typeof ListIdParams> }>(
    '/v5/list/:list_id/results',
    { config: auth(), schema: { summary: 'The results file (application/zip), or a 302 to a short-lived link with MAILSURE_LIST_STORE_REDIRECT', params: ListIdParams, response: errorsOf } },
    async (request, reply) => {
      const results = valueOf(await lists.results(request.apiKey!, request.params.list_id));
      // MAILSURE_LIST_STORE_REDIRECT: the object store serves the bytes; the link is short-lived, never cached.
      if ('link' in results) return reply.header('cache-control', 'no-store').redirect(results.link, 302);
      return reply
        .type('application/zip')
        .header('content-length', results.size)
        .header('content-disposition', attachmentDisposition(results.fileName))
        .send(results.stream);
    },
  );
}
