/**
 * Request bodies cannot hold connections for long (issue 31 point 4). Each body has a deadline by
 * the kind of route it goes to — a bulk JSON body (MAILSURE_BODY_TIMEOUT_SECONDS, default 60) or a
 * list upload (MAILSURE_REQUEST_TIMEOUT_SECONDS, default 1800) — timed here, per request, so the
 * 408 comes when it is due. Node's own `requestTimeout` stays as the backstop, but it is only
 * looked at every `connectionsCheckingInterval` (30 s), and Node took the larger of it and the
 * headers timeout (60 s) as the deadline (app.ts): a 20 s setting was answered after 80 s.
 *
 * And a client address may have only so many bodies arriving at once (MAILSURE_BODIES_PER_ADDRESS,
 * default 64; 429 beyond, before auth): per key the caps are the bulk calls in progress
 * (MAILSURE_BULK_CALLS_PER_KEY, bulk-slots.ts) and the uploads in progress
 * (MAILSURE_LIST_UPLOADS_PER_KEY), both of which hold their slot from before the body is read.
 * The address is the one the trusted-proxy setting yields (`request.ip`).
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { errors } from '../core/errors.js';

export interface BodyDeadlines {
  /** Longest time for a JSON body (bulk calls, admin calls) to arrive whole. */
  jsonMs: number;
  /** Longest time for a list upload to arrive whole. */
  uploadMs: number;
  /** Bodies one client address may have arriving at once. */
  perAddress: number;
  /** Headers every answer carries (the 408 is written here, outside Fastify's reply). */
  headers: Readonly<Record<string, string>>;
}

export function installBodyDeadlines(app: FastifyInstance, options: BodyDeadlines): void {
  const arriving = new Map<string, number>();
  const timeout = errors.requestTimeout();
  const timeoutBody = JSON.stringify(timeout.toBody());

  /** 408 with the connection closed: what is left of the body is never read. */
  const answerTimeout = (res: ServerResponse): void => {
    const socket = res.socket;
    if (res.headersSent || res.destroyed) return void socket?.destroy();
    res.writeHead(timeout.status, STATUS_CODES[timeout.status], {
      ...options.headers,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(timeoutBody),
      connection: 'close',
    });
    res.end(timeoutBody, () => socket?.destroy());
  };

  const track = (request: FastifyRequest, reply: FastifyReply, deadlineMs: number): void => {
    const address = request.ip;
    arriving.set(address, (arriving.get(address) ?? 0) + 1);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const left = (arriving.get(address) ?? 1) - 1;
      if (left > 0) arriving.set(address, left);
      else arriving.delete(address);
    };
    const timer = setTimeout(() => {
      // `complete`: every byte of the body arrived, read or not yet read by the route.
      const late = !request.raw.complete;
      finish();
      if (late) answerTimeout(reply.raw);
    }, deadlineMs);
    // The server's listening socket keeps the process alive, not a pending deadline.
    timer.unref();
    // The body arrived, or the connection went (a refusal answered before the body, a client gone).
    request.raw.once('end', finish).once('close', finish);
    reply.raw.once('close', finish);
  };

  app.addHook('onRoute', (route) => {
    const deadlineMs = route.config?.upload ? options.uploadMs : options.jsonMs;
    const hook: onRequestHookHandler = (request, reply, done) => {
      if (!hasBody(request)) return done();
      if ((arriving.get(request.ip) ?? 0) >= options.perAddress) return done(errors.tooManyBodies(options.perAddress));
      track(request, reply, deadlineMs);
      done();
    };
    const existing = route.onRequest;
    route.onRequest = existing === undefined ? [hook] : Array.isArray(existing) ? [hook, ...existing] : [hook, existing];
  });
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}
