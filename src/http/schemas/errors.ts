/**
 * The whole-request error body (decisions §3) as each status documents it: one schema per status,
 * with the reason it is given and, where a client should wait, the `Retry-After` header. Routes
 * spread `errorResponses(…)`; the OpenAPI document (http/openapi.ts) adds the ones every keyed
 * route can give (500, 503).
 */
import { Type, type TObject } from 'typebox';

export const ErrorBody = Type.Object({ error_code: Type.Integer(), error_msg: Type.String() });

const retryAfter = (description: string) => ({ 'retry-after': Type.Integer({ minimum: 1, description }) });

const error = (description: string, headers?: Record<string, unknown>): TObject =>
  Type.Object(ErrorBody.properties, { description, ...(headers ? { headers } : {}) });

export const ERROR_RESPONSES = {
  400: error('A parameter or the body is missing, repeated, not URL encoded or invalid; `error_msg` names it'),
  401: error('The API key is missing, unknown, revoked or not permitted for this endpoint'),
  403: error('The key has used up its query limit, or has no section this endpoint returns'),
  404: error('No such list (or not one of this key), or no results file'),
  409: error('The list is in a state that does not allow this operation'),
  413: error('The body is larger than the limit, or the key would keep more list bytes than allowed'),
  415: error('The body is not multipart/form-data'),
  422: error('The file cannot be a list: bad name or extension, a zip without exactly one file, empty or undecodable'),
  429: error('Over the key’s rate (calls a second, or records a second when it has a record rate), or too many bulk calls or uploads of this key in progress', retryAfter('Seconds to wait before calling again')),
  500: error('Our own failure, logged with the request id (`X-Request-Id`)'),
  503: error('A dependency (the database; for a list submit or results download, the object store of lists) did not answer in time; try again', retryAfter('Seconds to wait before trying again')),
} as const;

export type ErrorStatus = keyof typeof ERROR_RESPONSES;

export function errorResponses<S extends ErrorStatus>(...statuses: S[]): Pick<typeof ERROR_RESPONSES, S> {
  return Object.fromEntries(statuses.map((s) => [s, ERROR_RESPONSES[s]])) as Pick<typeof ERROR_RESPONSES, S>;
}
