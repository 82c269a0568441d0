/** GET /v5/ev: verify one address (api-reference "Verify one address"). */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { UsageMeter } from '../../accounts/usage-meter.js';
import { errors } from '../../core/errors.js';
import { EvidenceTrace } from '../../verification/evidence.js';
import { renderEvidence } from '../../verification/render-evidence.js';
import { renderEmailValidation, renderSafeToSend } from '../../verification/render.js';
import type { VerifyService } from '../../verification/verify-service.js';
import { errorResponses } from '../schemas/errors.js';
import { EvQuery, PlainTextError, VerificationResponse } from '../schemas/verification.js';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const MAX_TIMEOUT_MS = 30_000;

export function verifyRoutes(app: FastifyInstance, deps: { verify: VerifyService; meter: UsageMeter }): void {
  app.get<{ Querystring: Static<typeof EvQuery> }>(
    '/v5/ev',
    {
      config: { auth: { source: 'query', services: ['verification'], plainText401: true, rateLimited: true, recordRated: true } },
      schema: {
        operationId: 'verifyEmail',
        tags: ['verification'],
        summary: 'Verify one address',
        querystring: EvQuery,
        response: { 200: VerificationResponse, ...errorResponses(400), 401: PlainTextError, ...errorResponses(403, 429) },
      },
    },
    async (request) => {
      const key = request.apiKey!;
      const timeoutMs = parseTimeout(request.query.timeout);
      // A key without the evidence permission gets the contract's answer, without evidence (docs/verification.md).
      const trace = parseExplain(request.query.explain) && key.evidence ? new EvidenceTrace() : undefined;
      const verdict = await deps.verify.verify(request.query.email, {
        timeoutMs,
        key: { id: key.id, bouncers: key.bouncers, corrections: key.services.includes('corrections') },
        ...(trace ? { evidence: trace } : {}),
      });
      deps.meter.record(key, { verification: 1 });
      const body = key.variant === 'safe_to_send' ? renderSafeToSend(verdict) : renderEmailValidation(verdict);
      return trace ? { ...body, evidence: renderEvidence(trace.finish(verdict.code, verdict.limit)) } : body;
    },
  );
}

/** `explain`: true or false (absent: false); anything else is 400, so a typo never silently drops the evidence. */
export function parseExplain(raw: string | undefined): boolean {
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  throw errors.invalidParameter('explain', 'must be true or false');
}

/** decisions §4: seconds greater than 0, decimals allowed; above 30 is capped; anything else is 400. */
export function parseTimeout(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_TIMEOUT_MS;
  const seconds = /^\d{1,9}(\.\d{1,9})?$|^\.\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(seconds > 0)) throw errors.invalidParameter('timeout', 'must be a number of seconds greater than 0');
  return Math.min(Math.round(seconds * 1000), MAX_TIMEOUT_MS);
}
