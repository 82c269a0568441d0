/**
 * The one catalogue of whole-request errors. Domain and HTTP code create these through the
 * factories below; `http/error-handler.ts` is the one place that renders them.
 */
export type ErrorBody = { error_code: number; error_msg: string };

export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  toBody(): ErrorBody {
    return { error_code: this.status, error_msg: this.message };
  }
}

export const errors = {
  badRequest: (message: string) => new AppError(400, message),
  notUrlEncoded: () => new AppError(400, 'Parameters are not URL encoded'),
  malformedMultipart: (detail: string) => new AppError(400, `Malformed multipart/form-data body (${detail})`),
  malformedRequest: () => new AppError(400, 'Malformed request: the request line or a header is not valid HTTP (URL-encode parameters)'),
  requestTimeout: () => new AppError(408, 'Request timeout'),
  headersTooLarge: () => new AppError(431, 'Request headers too large'),
  missingParameter: (name: string) => new AppError(400, `Missing required parameter: ${name}`),
  invalidParameter: (name: string, why: string) => new AppError(400, `Invalid parameter ${name}: ${why}`),
  invalidJson: () => new AppError(400, 'Invalid JSON'),
  invalidApiKey: () => new AppError(401, 'Invalid API key'),
  keyNotPermitted: () => new AppError(401, 'API key is not permitted for this endpoint'),
  quotaExceeded: () => new AppError(403, 'Query limit exceeded'),
  noSection: () => new AppError(403, 'API key is not configured for any section this endpoint returns'),
  httpsRequired: () => new AppError(403, 'HTTPS is required'),
  notFound: (what = 'Not found') => new AppError(404, what),
  methodNotAllowed: () => new AppError(405, 'Method not allowed'),
  payloadTooLarge: (what = 'Request body too large') => new AppError(413, what),
  conflict: (what: string) => new AppError(409, what),
  unprocessable: (what: string) => new AppError(422, what),
  notReady: (what: string) => new AppError(401, what),
  unsupportedMediaType: () => new AppError(415, 'Invalid Content-Type'),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError(429, 'Rate limit exceeded', { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) }),
  tooManyUploads: (what: string) => new AppError(429, what, { 'retry-after': '30' }),
  recordRateLimited: (retryAfterSeconds: number, recordsPerSecond: number) =>
    new AppError(429, `Record rate exceeded: this key may send ${recordsPerSecond} records a second`, {
      'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    }),
  tooManyLists: (max: number) =>
    new AppError(429, `Too many lists waiting: this key may have ${max} lists waiting or running at once; send the next when one is done`, {
      'retry-after': '60',
    }),
  tooManyBodies: (max: number) =>
    new AppError(429, `Too many requests arriving: this address may send ${max} request bodies at once; send the next when one has arrived`, {
      'retry-after': '1',
    }),
  adminSlowedDown: (retryAfterSeconds: number) =>
    new AppError(429, `Too many wrong admin tokens from this address: try again in ${retryAfterSeconds} s`, {
      'retry-after': String(retryAfterSeconds),
    }),
  tooManyBulkCalls: (max: number) =>
    new AppError(429, `Too many bulk calls in progress: this key may have ${max} at once; send the next when one is answered`, { 'retry-after': '1' }),
  unavailableNow: (what: string) => new AppError(503, what, { 'retry-after': '5' }),
  internal: () => new AppError(500, 'Internal server error'),
  unavailable: (what = 'Service unavailable') => new AppError(502, what),
} as const;
