/**
 * The one place errors become responses: `{"error_code","error_msg"}` everywhere, except the
 * plain-text 401 that /v5/ev clients expect (api-reference "Verify one address").
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errors } from '../core/errors.js';
import { SECURITY_HEADER_LINES } from './security-headers.js';

/**
 * `isDependencyStall`: whether an error is a dependency that did not answer in time (a stalled
 * database), a temporary outage rather than a bug of ours; the composition root knows the engine's.
 */
export function installErrorHandler(app: FastifyInstance, isDependencyStall: (error: unknown) => boolean = () => false): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error, request.routeOptions.config?.auth?.jsonBody === true, isDependencyStall);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(request, reply, appError);
  });
  app.setNotFoundHandler((request, reply) => sendError(request, reply, errors.notFound()));
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  // A call that ends in an error is not counted against the quota.
  request.releaseReservation?.();
  reply.code(error.status).headers(error.headers);
  // Refused before its body was read (a bad key on an upload, a limit): close the connection
  // after the answer, so a slow or endless body cannot hold it (and its descriptor) any longer.
  if (hasBody(request) && !request.raw.readableEnded) reply.header('connection', 'close');
  if (error.status === 401 && request.routeOptions.config?.auth?.plainText401) {
    return reply.type('text/plain; charset=utf-8').send(error.message);
  }
  return reply.type('application/json; charset=utf-8').send(error.toBody());
}

function toAppError(error: FastifyError, jsonBody: boolean, isDependencyStall: (error: unknown) => boolean = () => false): AppError {
  if (error instanceof AppError) return error;
  if (error.validation && error.validation.length > 0) return fromValidation(error);
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      // The reference's bulk calls answer a missing application/json with 400 Invalid JSON.
      return jsonBody ? errors.invalidJson() : errors.unsupportedMediaType();
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge();
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errors.invalidJson();
  }
  if (error instanceof SyntaxError && error.statusCode === 400) return errors.invalidJson();
  // A stalled database (a held lock, a paused server) is a temporary outage, not a bug of ours.
  if (isDependencyStall(error)) return errors.unavailableNow('The database did not answer in time; try again');
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return errors.fromFramework(status, error.message);
  return errors.internal();
}

function fromValidation(error: FastifyError): AppError {
  const first = error.validation![0]!;
  const where = first.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (first.keyword === 'required') {
    const missing = (first.params as { missingProperty?: string }).missingProperty ?? where;
    return errors.missingParameter(missing);
  }
  // Every query value arrives as a string, so a type failure there means a repeated parameter.
  if (error.validationContext === 'querystring' && first.keyword === 'type') {
    return errors.invalidParameter(where, 'must be given once');
  }
  if (first.keyword === 'additionalProperties') {
    const extra = (first.params as { additionalProperty?: string }).additionalProperty ?? where;
    return errors.badRequest(`Unknown parameter: ${extra}`);
  }
  return errors.invalidParameter(where || error.validationContext || 'request', first.message ?? 'is invalid');
}

/**
 * Errors Fastify's router meets before any route (a path whose percent-encoding is broken): the
 * `frameworkErrors` option, so they get our body rather than Fastify's own.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(request, reply, error.code === 'FST_ERR_BAD_URL' ? errors.notUrlEncoded() : toAppError(error, false));
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them — raw non-ASCII bytes or a space
 * in the request line (a client that did not URL-encode `josé@exämple.de`), a header too large,
 * a request too slow: the `clientErrorHandler` option. There is no request or reply yet, only the
 * socket, so the response is written by hand, with our body (decisions §3) where Fastify's
 * default wrote `{"error","message","statusCode"}`, and the security headers every other answer
 * carries (an API error answer: no-store).
 */
const CLIENT_ERRORS: Record<string, () => AppError> = {
  // A byte the URL grammar does not allow: raw UTF-8 or a control character in the query.
  HPE_INVALID_URL: errors.notUrlEncoded,
  ERR_HTTP_REQUEST_TIMEOUT: errors.requestTimeout,
  HPE_HEADER_OVERFLOW: errors.headersTooLarge,
};

export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const appError = CLIENT_ERRORS[error.code ?? '']?.() ?? errors.malformedRequest();
  const body = JSON.stringify(appError.toBody());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status] ?? 'Error'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `${SECURITY_HEADER_LINES}Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * A service's answer for a route: its value, or its refusal thrown to the error handler above
 * (the one place refusals become responses).
 */
export function valueOf<T>(result: { ok: true; value: T } | { ok: false; error: AppError }): T {
  if (!result.ok) throw result.error;
  return result.value;
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}
