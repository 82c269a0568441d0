/**
 * The one catalogue of errors callers see: every whole-request error, every per-record error
 * element of a bulk answer, the admin API's and `/readyz`'s. Domain and HTTP code create them
 * through the factories below, grouped by status, each group beside the status's description
 * (what the OpenAPI document says of that status, http/schemas/errors.ts); `toBody()` is the one
 * rendering of the body, and `http/error-handler.ts` the one place a thrown one becomes a
 * response. Domain code returns typed refusals (or these errors) and never writes the body itself.
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

  /** `{"error_code","error_msg"}`, in that order: the body of a response or of a per-record element. */
  toBody(): ErrorBody {
    return { error_code: this.status, error_msg: this.message };
  }
}

/** What a status means to a client, and the Retry-After it carries when it asks the client to wait. */
export interface StatusDescription {
  description: string;
  retryAfter?: string;
}

type Make = (message: string, headers?: Record<string, string>) => AppError;

const descriptions = new Map<number, StatusDescription>();

/** One status: its description, and the factories of its errors (each given `make` for that status). */
function status<F>(code: number, described: StatusDescription, factories: (make: Make) => F): F {
  descriptions.set(code, described);
  return factories((message, headers) => new AppError(code, message, headers));
}

const retryAfterSeconds = (seconds: number) => ({ 'retry-after': String(Math.max(1, Math.ceil(seconds))) });

export const errors = {
  ...status(
    400,
    { description: 'A parameter or the body is missing, repeated, not URL encoded or invalid; `error_msg` names it' },
    (make) => ({
      badRequest: (message: string) => make(message),
      notUrlEncoded: () => make('Parameters are not URL encoded'),
      malformedMultipart: (detail: string) => make(`Malformed multipart/form-data body (${detail})`),
      malformedRequest: () => make('Malformed request: the request line or a header is not valid HTTP (URL-encode parameters)'),
      missingParameter: (name: string) => make(`Missing required parameter: ${name}`),
      invalidParameter: (name: string, why: string) => make(`Invalid parameter ${name}: ${why}`),
      invalidJson: () => make('Invalid JSON'),
      /** A bulk element that is not a JSON object (per-record element). */
      recordNotObject: () => make('Invalid record: must be a JSON object'),
    }),
  ),
  ...status(401, { description: 'The API key is missing, unknown, revoked or not permitted for this endpoint' }, (make) => ({
    invalidApiKey: () => make('Invalid API key'),
    keyNotPermitted: () => make('API key is not permitted for this endpoint'),
    /** A list's evidence, asked by a key without the evidence permission (it may have been withdrawn since the submit). */
    evidenceNotPermitted: () => make('API key is not permitted for evidence (the key has no evidence permission)'),
    notReady: (what: string) => make(what),
    /** An outcome webhook (routes/outcomes.ts): an unknown ingestion token, or the ESP's own signature or credentials failing. */
    outcomeNotAuthenticated: (why: string) => make(why),
    /** The admin API's token (routes/admin.ts), missing or wrong. */
    invalidAdminToken: () => make('Invalid admin token', { 'www-authenticate': 'Bearer' }),
  })),
  ...status(403, { description: 'The key has used up its query limit, or has no section this endpoint returns' }, (make) => ({
    quotaExceeded: () => make('Query limit exceeded'),
    noSection: () => make('API key is not configured for any section this endpoint returns'),
    httpsRequired: () => make('HTTPS is required'),
    /** A bulk append record asking only for what the key may not do (per-record element). */
    appendNotPermitted: (asked: 'email_append' | 'postal_append') =>
      make(asked === 'email_append' ? 'API key is not configured for email append' : 'API key is not configured for postal append'),
  })),
  ...status(404, { description: 'No such list (or not one of this key), or no results or evidence file' }, (make) => ({
    notFound: (what = 'Not found') => make(what),
    /** The admin API: no key of that name to revoke. */
    noSuchKey: () => make('No key has that name'),
  })),
  ...status(405, { description: 'The method is not allowed on this path' }, (make) => ({
    methodNotAllowed: () => make('Method not allowed'),
  })),
  ...status(408, { description: 'The request did not arrive in time' }, (make) => ({
    requestTimeout: () => make('Request timeout'),
  })),
  ...status(409, { description: 'The list is in a state that does not allow this operation' }, (make) => ({
    conflict: (what: string) => make(what),
    /** The admin API: a key of that name exists. */
    duplicateKeyName: (name: string) => make(`A key named ${name} already exists`),
  })),
  ...status(413, { description: 'The body is larger than the limit, or the key would keep more list bytes than allowed' }, (make) => ({
    payloadTooLarge: (what = 'Request body too large') => make(what),
  })),
  ...status(
    415,
    {
      description:
        "The body's Content-Type is not one the endpoint reads (multipart/form-data for a list; the ESP's own for an outcome webhook)",
    },
    (make) => ({
      unsupportedMediaType: () => make('Invalid Content-Type'),
      /** An outcome webhook whose Content-Type its source never sends. */
      outcomeContentType: (why: string) => make(why),
    }),
  ),
  ...status(
    422,
    {
      description:
        'The file cannot be a list (bad name or extension, a zip without exactly one file, empty or undecodable), or an outcome webhook is in no shape its source sends',
    },
    (make) => ({
      unprocessable: (what: string) => make(what),
    }),
  ),
  ...status(
    429,
    {
      description:
        'Over the key’s rate (calls a second, or records a second when it has a record rate), or too many bulk calls or uploads of this key in progress',
      retryAfter: 'Seconds to wait before calling again',
    },
    (make) => ({
      rateLimited: (retryAfter: number) => make('Rate limit exceeded', retryAfterSeconds(retryAfter)),
      tooManyUploads: (what: string) => make(what, { 'retry-after': '30' }),
      recordRateLimited: (retryAfter: number, recordsPerSecond: number) =>
        make(`Record rate exceeded: this key may send ${recordsPerSecond} records a second`, retryAfterSeconds(retryAfter)),
      tooManyLists: (max: number) =>
        make(`Too many lists waiting: this key may have ${max} lists waiting or running at once; send the next when one is done`, {
          'retry-after': '60',
        }),
      tooManyBodies: (max: number) =>
        make(`Too many requests arriving: this address may send ${max} request bodies at once; send the next when one has arrived`, {
          'retry-after': '1',
        }),
      adminSlowedDown: (retryAfter: number) =>
        make(`Too many wrong admin tokens from this address: try again in ${retryAfter} s`, { 'retry-after': String(retryAfter) }),
      tooManyBulkCalls: (max: number) =>
        make(`Too many bulk calls in progress: this key may have ${max} at once; send the next when one is answered`, {
          'retry-after': '1',
        }),
    }),
  ),
  ...status(431, { description: 'The request headers are larger than the limit' }, (make) => ({
    headersTooLarge: () => make('Request headers too large'),
  })),
  ...status(500, { description: 'Our own failure, logged with the request id (`X-Request-Id`)' }, (make) => ({
    internal: () => make('Internal server error'),
  })),
  ...status(502, { description: 'A service behind us failed' }, (make) => ({
    unavailable: (what = 'Service unavailable') => make(what),
  })),
  ...status(
    503,
    {
      description:
        'A dependency (the database; for a list submit or results download, the object store of lists; for an Amazon SNS outcome, its signing certificate) did not answer in time; try again',
      retryAfter: 'Seconds to wait before trying again',
    },
    (make) => ({
      unavailableNow: (what: string) => make(what, { 'retry-after': '5' }),
      /** `/readyz`: a dependency that decides readiness did not answer (no Retry-After: a load balancer polls). */
      dependencyNotAnswering: (name: string) => make(`${name} is not answering`),
    }),
  ),
  /** A 4xx Fastify raised itself with its own message (http/error-handler.ts). */
  fromFramework: (code: number, message: string) => new AppError(code, message),
} as const;

/** The description of a status the catalogue gives errors of. */
export function statusDescription(code: number): StatusDescription {
  const described = descriptions.get(code);
  if (!described) throw new Error(`No error status ${code} in the catalogue`);
  return described;
}

/** Every status the catalogue gives errors of, ascending. */
export const ERROR_STATUSES: readonly number[] = [...descriptions.keys()].sort((a, b) => a - b);
