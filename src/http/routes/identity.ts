/**
 * GET /v5/eppend and POST /v5/eppend/bulk (api-reference "Identity matching", decisions §5).
 * A request-data problem is the per-record error element with HTTP 200, single or bulk, as the
 * reference says of identity matching; key and body problems are whole-request errors.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { ApiKeyRecord } from '../../accounts/key-config.js';
import type { UsageMeter } from '../../accounts/usage-meter.js';
import { errors } from '../../core/errors.js';
import { countAppended, parseAppendRequest, type AppendAnswer, type AppendRequest, type AppendService } from '../../identity/append/index.js';
import { errorResponses } from '../schemas/errors.js';
import { jsonArrayStream } from '../json-array-stream.js';
import { BULK_SLICE, inSlices } from '../../core/in-slices.js';
import { AppendAnswerSchema, AppendBulkRequest, EppendBulkQuery, EppendQuery } from '../schemas/identity.js';

export const MAX_APPEND_BULK_RECORDS = 1_250;
const AUTH = { source: 'query', services: ['email_append', 'postal_append'], rateLimited: true, recordRated: true } as const;

export function identityRoutes(app: FastifyInstance, deps: { append: AppendService; meter: UsageMeter }): void {
  app.get<{ Querystring: Static<typeof EppendQuery> }>(
    '/v5/eppend',
    {
      config: { auth: { ...AUTH, services: [...AUTH.services] } },
      schema: {
        operationId: 'appendIdentity',
        tags: ['identity'],
        summary: 'Email append (name + postal address) and postal append (email) for one person',
        description: 'A problem with the request’s data is the per-record error element with HTTP 200.',
        querystring: EppendQuery,
        response: { 200: AppendAnswerSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const key = request.apiKey!;
      const [answer] = await answerAll(deps, key, [request.query]);
      // The key may do neither thing this request asks: that is the key's problem, not the record's.
      if ('error_code' in answer! && answer.error_code === 403) throw errors.noSection();
      return answer;
    },
  );

  app.post<{ Querystring: Static<typeof EppendBulkQuery> }>(
    '/v5/eppend/bulk',
    {
      config: {
        auth: { ...AUTH, services: [...AUTH.services], jsonBody: true, perRecord: { maxRecords: MAX_APPEND_BULK_RECORDS } },
        openapiBody: { schema: AppendBulkRequest, contentType: 'application/json', required: true },
      },
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        operationId: 'appendIdentityBulk',
        tags: ['identity'],
        summary: `Email and postal append for up to ${MAX_APPEND_BULK_RECORDS} records (application/json array)`,
        querystring: EppendBulkQuery,
        response: { 200: Type.Array(AppendAnswerSchema, { description: 'One element per request element, in order' }), ...errorResponses(400, 401, 403, 413, 429) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (!Array.isArray(body)) throw errors.invalidJson();
      if (body.length > MAX_APPEND_BULK_RECORDS) throw errors.badRequest('Too many records requested');
      const answers = await answerAll(deps, request.apiKey!, body);
      return reply.type('application/json; charset=utf-8').send(jsonArrayStream(answers.map((a) => JSON.stringify(a))));
    },
  );
}

async function answerAll(deps: { append: AppendService; meter: UsageMeter }, key: ApiKeyRecord, elements: readonly unknown[]): Promise<AppendAnswer[]> {
  // Parsed a slice at a time, as the matching is: a full bulk call takes milliseconds to check.
  const parsed = await inSlices(elements, BULK_SLICE, async (slice) =>
    slice.map((element) =>
      element !== null && typeof element === 'object' && !Array.isArray(element)
        ? parseAppendRequest(element as Record<string, unknown>)
        : { error: 'Invalid record: must be a JSON object' },
    ),
  );
  const requests = parsed.flatMap((p) => ('request' in p ? [p.request] : [])) as AppendRequest[];
  const answers = await deps.append.append(requests, {
    emailAppend: key.services.includes('email_append'),
    postalAppend: key.services.includes('postal_append'),
  });
  let next = 0;
  const out = parsed.map((p): AppendAnswer => ('request' in p ? answers[next++]! : { error_code: 400, error_msg: p.error }));
  deps.meter.record(key, { append_match: out.reduce((n, a) => n + countAppended(a), 0) });
  return out;
}
