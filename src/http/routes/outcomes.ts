/**
 * POST /v5/outcomes/{token}/{source}: an ESP's event webhook (or a raw DSN / ARF report) for the
 * key whose ingestion token is in the path (docs/outcomes.md). No API key: the ESP cannot send
 * one, and the URL is pasted into its console. The body is read raw (the ESP's signature covers
 * its exact bytes), up to OUTCOME_BODY_LIMIT; the source's parser decides what it accepts. Every
 * refusal is a 4xx with our error body and stores nothing; a repeated event answers 200. Each token
 * may post OUTCOME_DELIVERIES_PER_SECOND deliveries a second.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { errors, type AppError } from '../../core/errors.js';
import type { OutcomeIngest } from '../../outcomes/ingest-outcomes.js';
import { OUTCOME_SOURCES, type OutcomeDelivery, type OutcomeRefusal, type OutcomeSource } from '../../outcomes/outcome-event.js';
import { hashOutcomeToken } from '../../outcomes/ingest-token.js';
import { CertificateUnavailable } from '../../outcomes/sns.js';
import { errorResponses } from '../schemas/errors.js';

/**
 * Deliveries a second per ingestion token (429 with Retry-After beyond; an ESP retries): far above
 * what an ESP posts (SES one notification per event, the others batches), low enough that a
 * leaked token cannot keep the database busy.
 */
export const OUTCOME_DELIVERIES_PER_SECOND = 200;

/** 5 MB: an ESP's batch (SendGrid posts up to a few thousand events) or a report message with its parts. */
export const OUTCOME_BODY_LIMIT = 5 * 1024 * 1024;

const Params = Type.Object({
  token: Type.String({ description: "The key's outcome ingestion token (`mailsure keys outcomes-token`)" }),
  source: Type.Union(
    OUTCOME_SOURCES.map((s) => Type.Literal(s)),
    { description: 'The format of the body: the ESP that sends it, or `dsn` / `arf` for a raw report message' },
  ),
});

const Received = Type.Object(
  {
    events: Type.Integer({ description: 'Events read from the body' }),
    applied: Type.Integer({ description: 'Events applied now' }),
    repeated: Type.Integer({ description: 'Events whose id this key had received before: nothing changed for them' }),
  },
  { additionalProperties: false },
);

export async function outcomeRoutes(
  app: FastifyInstance,
  ingest: OutcomeIngest,
  limiter: { consume(name: string): Promise<number | undefined> },
): Promise<void> {
  await app.register(async (scope) => {
    // Before the body is read: a token over its rate costs no upload. Named by the token's hash,
    // never the token (the counters may live in Redis).
    scope.addHook('onRequest', async (request) => {
      const token = (request.params as { token?: string }).token ?? '';
      const wait = await limiter.consume(`t${hashOutcomeToken(token).slice(0, 32)}`);
      if (wait !== undefined) throw errors.rateLimited(wait);
    });
    // Every body raw, whatever its type: SNS posts JSON as text/plain, reports come as message/*.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: OUTCOME_BODY_LIMIT }, (_request, body, done) => done(null, body));
    scope.post<{ Params: { token: string; source: OutcomeSource } }>(
      '/v5/outcomes/:token/:source',
      {
        bodyLimit: OUTCOME_BODY_LIMIT,
        schema: {
          operationId: 'ingestOutcomes',
          tags: ['outcomes'],
          summary: "Receive an ESP's bounce, complaint and delivery events",
          description:
            'The body as the ESP sends it (JSON; `message/rfc822` or `multipart/report` for `dsn` and `arf`), at most 5 MB. ' +
            'Proven hard bounces and complaints go on the key’s own bouncers (520) and complainers (525); a delivery removes ' +
            'what outcomes listed; everything else is counted per domain. See docs/outcomes.md.',
          params: Params,
          response: { 200: Received, ...errorResponses(400, 401, 413, 415, 422, 429, 500, 503) },
        },
      },
      async (request) => {
        const header = request.headers['content-type'] ?? '';
        const delivery: OutcomeDelivery = {
          body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          contentType: header.split(';')[0]!.trim().toLowerCase(),
          contentTypeHeader: header,
          headers: headersOf(request.headers),
        };
        const result = await ingest.ingest(request.params.token, request.params.source, delivery).catch((error: unknown) => {
          // The SNS signing certificate could not be fetched: not the body's fault; SNS retries a 5xx.
          if (error instanceof CertificateUnavailable) throw errors.unavailableNow(error.message);
          throw error;
        });
        if (!result.ok) throw refusalError(result.refusal);
        request.log.info(
          { source: request.params.source, events: result.events.length, applied: result.applied, repeated: result.repeated },
          'outcomes received',
        );
        return { events: result.events.length, applied: result.applied, repeated: result.repeated };
      },
    );
  });
}

function headersOf(raw: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(raw)) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

function refusalError(refusal: OutcomeRefusal): AppError {
  switch (refusal.status) {
    case 400:
      return errors.badRequest(refusal.message);
    case 401:
      return errors.outcomeNotAuthenticated(refusal.message);
    case 413:
      return errors.payloadTooLarge(refusal.message);
    case 415:
      return errors.outcomeContentType(refusal.message);
    case 422:
      return errors.unprocessable(refusal.message);
  }
}
