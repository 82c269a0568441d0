/**
 * GET /v5/eppend and POST /v5/eppend/bulk (api-reference "Identity matching", decisions §5).
 * A request-data problem is the per-record error element with HTTP 200, single or bulk, as the
 * reference says of identity matching; key and body problems are whole-request errors. The
 * service's refusal (the key may not do what a record asks) is the per-record 403 element in bulk
 * and the whole-request 403 for the single call; both bodies come from core/errors.ts.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { ApiKeyRecord } from '../../accounts/key-config.js';
import type { UsageMeter } from '../../accounts/usage-meter.js';
import { errors, type ErrorBody } from '../../core/errors.js';
import {
  countAppended,
  parseAppendRequest,
  type AppendMatch,
  type AppendRefusal,
  type AppendRequest,
  type AppendService,
} from '../../identity/append/index.js';
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
      if ('refused' in answer!) throw errors.noSection();
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
        response: {
          200: Type.Array(AppendAnswerSchema, { description: 'One element per request element, in order' }),
          ...errorResponses(400, 401, 403, 413, 429),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (!Array.isArray(body)) throw errors.invalidJson();
      if (body.length > MAX_APPEND_BULK_RECORDS) throw errors.badRequest('Too many records requested');
      const answers = await answerAll(deps, request.apiKey!, body);
      const elements = answers.map((a) => JSON.stringify('refused' in a ? refusalBody(a) : a));
      return reply.type('application/json; charset=utf-8').send(jsonArrayStream(elements));
    },
  );
}

/** One request element's answer: a match, the service's refusal, or the per-record 400 element. */
type Answered = AppendMatch | AppendRefusal | ErrorBody;

const refusalBody = (refusal: AppendRefusal): ErrorBody => errors.appendNotPermitted(refusal.asked).toBody();

async function answerAll(
  deps: { append: AppendService; meter: UsageMeter },
  key: ApiKeyRecord,
  elements: readonly unknown[],
): Promise<Answered[]> {
  // Parsed a slice at a time, as the matching is: a full bulk call takes milliseconds to check.
  const parsed = await inSlices(elements, BULK_SLICE, async (slice) =>
    slice.map((element) =>
      element !== null && typeof element === 'object' && !Array.isArray(element)
        ? parseAppendRequest(element as Record<string, unknown>)
        : { error: errors.recordNotObject().message },
    ),
  );
  const requests = parsed.flatMap((p) => ('request' in p ? [p.request] : [])) as AppendRequest[];
  const answers = await deps.append.append(requests, {
    emailAppend: key.services.includes('email_append'),
    postalAppend: key.services.includes('postal_append'),
  });
  let next = 0;
  const out = parsed.map((p): Answered => ('request' in p ? answers[next++]! : errors.badRequest(p.error).toBody()));
  deps.meter.record(key, { append_match: answers.reduce((n, a) => n + countAppended(a), 0) });
  return out;
}
