/**
 * Errors as values: every call answers `{ ok: true, value }` or `{ ok: false, error }`, never
 * throws for an HTTP, network or local file failure. `unwrap` turns a failure into a thrown
 * `MailsureError` for callers who prefer exceptions.
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

/** A local file the call needed cannot be used: a list to submit that is missing or unreadable, a results file that cannot be written. */
export interface FileFailure {
  kind: 'file';
  /** The path as the caller gave it. */
  path: string;
  /** One line naming the path: `no such file: ./nope.csv`. */
  message: string;
  cause?: unknown;
}

export type Failure = HttpFailure | NetworkFailure | FileFailure;

export type Result<T> = { ok: true; value: T } | { ok: false; error: Failure };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(error: Failure): Result<T> => ({ ok: false, error });

/** One line: `404 List not found`, `network: connect ECONNREFUSED 127.0.0.1:8443`, or `no such file: ./nope.csv`. */
export function describeFailure(error: Failure): string {
  if (error.kind === 'http') return `${error.status} ${error.message}`;
  return error.kind === 'network' ? `network: ${error.message}` : error.message;
}

/** The failure of a local file at `path`, worded by what went wrong with it. */
export function fileFailure(path: string, error: unknown, action: 'read' | 'write'): FileFailure {
  return { kind: 'file', path, message: fileProblem(path, error, action), cause: error };
}

function fileProblem(path: string, error: unknown, action: 'read' | 'write'): string {
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case 'ENOENT':
      return action === 'read' ? `no such file: ${path}` : `cannot write ${path}: no such directory`;
    case 'ENOTDIR':
      return `cannot ${action} ${path}: a part of its path is a file, not a directory`;
    case 'EACCES':
    case 'EPERM':
      return `cannot ${action} ${path}: permission denied`;
    default:
      return `cannot ${action} ${path}: ${error instanceof Error ? error.message : String(error)}`;
  }
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
