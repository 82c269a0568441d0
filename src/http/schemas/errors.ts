/**
 * The whole-request error body (decisions §3) as each status documents it: one schema per status,
 * with the reason it is given (written beside the status's factories, core/errors.ts) and, where a client should wait, the `Retry-After` header. Routes
 * spread `errorResponses(…)`; the OpenAPI document (http/openapi.ts) adds the ones every keyed
 * route can give (500, 503).
 */
import { Type, type TObject } from 'typebox';
import { statusDescription } from '../../core/errors.js';

export const ErrorBody = Type.Object({ error_code: Type.Integer(), error_msg: Type.String() });

const retryAfter = (description: string) => ({ 'retry-after': Type.Integer({ minimum: 1, description }) });

/** A status's schema, from its description beside its factories in core/errors.ts. */
function described(status: number): TObject {
  const { description, retryAfter: wait } = statusDescription(status);
  return Type.Object(ErrorBody.properties, { description, ...(wait ? { headers: retryAfter(wait) } : {}) });
}

export const ERROR_RESPONSES = {
  400: described(400),
  401: described(401),
  403: described(403),
  404: described(404),
  409: described(409),
  413: described(413),
  415: described(415),
  422: described(422),
  429: described(429),
  500: described(500),
  503: described(503),
} as const;

export type ErrorStatus = keyof typeof ERROR_RESPONSES;

export function errorResponses<S extends ErrorStatus>(...statuses: S[]): Pick<typeof ERROR_RESPONSES, S> {
  return Object.fromEntries(statuses.map((s) => [s, ERROR_RESPONSES[s]])) as Pick<typeof ERROR_RESPONSES, S>;
}
