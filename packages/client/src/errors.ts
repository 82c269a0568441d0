/**
 * Errors as values: every call answers `{ ok: true, value }` or `{ ok: false, error }`, never
 * throws for an HTTP or network failure. `unwrap` turns a failure into a thrown `MailsureError`
 * for callers who prefer exceptions.
 */

/** The server answered with an error status. */
export interface HttpFailure {
  kind: 'http';
  /** HTTP status (400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503…). */
  status: number;
  /** The server's `error_msg` (or its plain-text body). */
  message: string;
  /** Seconds the server asked to wait (429, 503), when it said. */
  retryAfter?: number;
}

/** No answer: the connection failed, TLS was refused, a time-out, or the answer was not readable. */
export interface NetworkFailure {
  kind: 'network';
  message: string;
  cause?: unknown;
}

export type Failure = HttpFailure | NetworkFailure;

export type Result<T> = { ok: true; value: T } | { ok: false; error: Failure };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(error: Failure): Result<T> => ({ ok: false, error });

/** One line: `404 List not found`, or `network: connect ECONNREFUSED 127.0.0.1:8443`. */
export function describeFailure(error: Failure): string {
  return error.kind === 'http' ? `${error.status} ${error.message}` : `network: ${error.message}`;
}

export class MailsureError extends Error {
  constructor(readonly failure: Failure) {
    super(describeFailure(failure));
    this.name = 'MailsureError';
  }
}

/** The value, or a thrown MailsureError. */
export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new MailsureError(result.error);
  return result.value;
}
