/** GET /v5/td and POST /v5/ei/bulk (api-reference "Enrichment", decisions §5). */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type, type Static } from 'typebox';
import type { UsageMeter } from '../../accounts/usage-meter.js';
import { errors } from '../../core/errors.js';
import { parseEnrichQuery, type EnrichQuery } from '../../enrichment/enrich-query.js';
import type { EnrichService } from '../../enrichment/enrich-service.js';
import { parseFieldsParam, selectFields, selectsNothing, type FieldSelection } from '../../enrichment/field-selection.js';
import type { ApiKeyRecord } from '../../accounts/key-config.js';
import { errorResponses } from '../schemas/errors.js';
import { BulkElement, BulkQuery, BulkRequest, EnrichmentAnswer, TdQuery } from '../schemas/enrichment.js';
import { renderHtml } from '../render-html.js';
import { jsonArrayStream } from '../json-array-stream.js';
import { BULK_SLICE, inSlices } from '../../core/in-slices.js';

export const MAX_BULK_RECORDS = 5_000;
const ENRICHMENT_AUTH = {
  source: 'query',
  services: ['enrichment', 'eam', 'postal_append'],
  rateLimited: true,
  recordRated: true,
} as const;
const BULK_AUTH = {
  ...ENRICHMENT_AUTH,
  services: [...ENRICHMENT_AUTH.services],
  jsonBody: true,
  perRecord: { maxRecords: MAX_BULK_RECORDS },
};

export function enrichmentRoutes(app: FastifyInstance, deps: { enrich: EnrichService; meter: UsageMeter }): void {
  app.get<{ Querystring: Static<typeof TdQuery> }>(
    '/v5/td',
    {
      config: { auth: { ...ENRICHMENT_AUTH, services: [...ENRICHMENT_AUTH.services] } },
      schema: {
        operationId: 'enrichPerson',
        tags: ['enrichment'],
        summary: 'Enrichment and email activity metrics for one person',
        querystring: TdQuery,
        response: { 200: EnrichmentAnswer, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const selection = selectionFor(request.apiKey!, request.query.fields);
      const parsed = parseEnrichQuery(request.query);
      if ('error' in parsed) throw errors.badRequest(parsed.error);
      const [answer] = await deps.enrich.enrich([parsed.query], selection);
      deps.meter.record(request.apiKey!, { enrichment_field: answer!.fields });
      if (request.query.format === 'html') return sendHtml(reply, JSON.parse(answer!.json));
      // Already JSON of exactly the allowed fields (enrichment/project.ts): sent as it is.
      return sendJson(reply, answer!.json);
    },
  );

  app.post<{ Querystring: Static<typeof BulkQuery> }>(
    '/v5/ei/bulk',
    {
      config: { auth: BULK_AUTH, openapiBody: { schema: BulkRequest, contentType: 'application/json', required: true } },
      bodyLimit: 16 * 1024 * 1024,
      schema: {
        operationId: 'enrichBulk',
        tags: ['enrichment'],
        summary: `Enrichment for up to ${MAX_BULK_RECORDS} records (application/json array)`,
        description: 'One answer per request element, in order: a record, `{}` for no match, or a per-record error element.',
        querystring: BulkQuery,
        response: {
          200: Type.Array(BulkElement, { description: 'One element per request element, in order' }),
          ...errorResponses(400, 401, 403, 413, 429),
        },
      },
    },
    async (request, reply) => {
      const selection = selectionFor(request.apiKey!, request.query.fields);
      const body = request.body;
      if (!Array.isArray(body)) throw errors.invalidJson();
      if (body.length > MAX_BULK_RECORDS) throw errors.badRequest('Too many records requested');
      // Parsed a slice at a time too: 5,000 records take milliseconds to check.
      const parsed = await inSlices(body as unknown[], BULK_SLICE, async (slice) =>
        slice.map((element) =>
          element !== null && typeof element === 'object' && !Array.isArray(element)
            ? parseEnrichQuery(element as Record<string, unknown>)
            : { error: errors.recordNotObject().message },
        ),
      );
      const queries = parsed.flatMap((p) => ('query' in p ? [p.query] : [])) as EnrichQuery[];
      const answers = await deps.enrich.enrich(queries, selection);
      let next = 0;
      const out = parsed.map((p) => ('query' in p ? answers[next++]!.json : JSON.stringify(errors.badRequest(p.error).toBody())));
      deps.meter.record(request.apiKey!, { enrichment_field: answers.reduce((n, a) => n + a.fields, 0) });
      return reply.type('application/json; charset=utf-8').send(jsonArrayStream(out));
    },
  );
}

/**
 * Per key record (the authenticator hands out the same object until its cache refreshes, so a
 * changed key gets a fresh entry) and `fields` value: most calls repeat both.
 */
const selections = new WeakMap<ApiKeyRecord, Map<string, FieldSelection | { error: string }>>();

function selectionFor(key: ApiKeyRecord, fieldsParam: string | undefined): FieldSelection {
  let byParam = selections.get(key);
  if (!byParam) selections.set(key, (byParam = new Map()));
  const param = fieldsParam ?? '';
  let selection = byParam.get(param);
  if (selection === undefined) {
    const requested = parseFieldsParam(fieldsParam);
    selection = 'error' in requested ? requested : selectFields(key, requested.fields);
    // Bounded: a caller cycling through `fields` values must not grow it without limit.
    if (byParam.size < 64) byParam.set(param, selection);
  }
  if ('error' in selection) throw errors.badRequest(selection.error);
  if (selectsNothing(selection)) throw errors.noSection();
  return selection;
}

/** A body that is already JSON, past the schema serialiser (the response schemas stay for the docs). */
function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return sendText(reply, 'application/json; charset=utf-8', json);
}

function sendHtml(reply: FastifyReply, record: unknown): FastifyReply {
  return sendText(reply, 'text/html; charset=utf-8', renderHtml(record));
}

function sendText(reply: FastifyReply, type: string, body: string): FastifyReply {
  return reply
    .type(type)
    .serializer((payload) => String(payload))
    .send(body);
}
