/**
 * Authentication as decisions §3 describes it, for every route that declares `config.auth`:
 * query key on real-time and bulk routes, header key on the List API (a key sent only in the
 * query there is not read), 401 for a missing/unknown/revoked/unpermitted key, 403 for an
 * exhausted quota, then 429 past the key's rate (calls a second; a bulk call is one) on
 * rate-limited routes, then 429 past the key's record rate when it has one (real-time routes) or
 * past its bulk calls in progress (bulk routes: a slot taken before the body is read and given back
 * when the answer is sent or the connection closes). One hook, in that order: every extra hook is
 * work on every request of the hot path. Bulk routes add one once the body is read: the call's
 * other records against the quota and, with a record rate, all of them against it.
 */
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  onRequestHookHandler,
  preHandlerHookHandler,
} from 'fastify';
import { NOT_CACHED, type KeyAuthenticator } from '../accounts/key-authenticator.js';
import type { ApiKeyRecord } from '../accounts/key-config.js';
import type { UsageMeter } from '../accounts/usage-meter.js';
import { errors } from '../core/errors.js';
import { MALFORMED, type ParsedQuery } from './query-string.js';
import type { BulkSlots } from './bulk-slots.js';
import type { KeyRateLimiter } from './rate-limit.js';

export interface AuthDeps {
  authenticator: KeyAuthenticator;
  meter: UsageMeter;
  limiter: KeyRateLimiter;
  /** Records a second, for keys that have a record rate. */
  recordLimiter: KeyRateLimiter;
  bulkSlots: BulkSlots;
}

export function installAuth(app: FastifyInstance, deps: AuthDeps): void {
  /** Adds `calls` to what the request gives back if it ends in an error. */
  const reserveOn = (request: FastifyRequest, key: ApiKeyRecord, calls: number): void => {
    const previous = request.releaseReservation;
    request.releaseReservation = () => {
      request.releaseReservation = undefined;
      previous?.();
      deps.meter.release(key, calls);
    };
  };
  /**
   * Reserves `calls` of the key's quota for the request, then `next`; 403 when they do not fit.
   * At once when this process decides alone; one Redis call when the count is shared.
   */
  const reserve = (request: FastifyRequest, key: ApiKeyRecord, calls: number, done: (error?: Error) => void, next: () => void): void => {
    const reserved = (fits: boolean): void => {
      if (!fits) return done(errors.quotaExceeded());
      request.apiKey = key;
      reserveOn(request, key, calls);
      next();
    };
    const answer = deps.meter.reserve(key, calls);
    if (typeof answer === 'boolean') reserved(answer);
    else answer.then(reserved, done);
  };
  // Hooks in callback form: an async hook costs a promise and its turns on every request.
  app.addHook('onRequest', (request, _reply, done) => {
    done((request.query as ParsedQuery)[MALFORMED] ? errors.notUrlEncoded() : undefined);
  });
  // The auth hook is attached per route with its config in a closure: reading
  // request.routeOptions builds a fresh object on every access, a measurable cost on the hot path.
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if (!auth) return;
    const bulk = auth.perRecord !== undefined;
    const consumeRecords = (key: ApiKeyRecord, recordRate: number, records: number, done: (error?: Error) => void): void => {
      deps.recordLimiter
        .consume(key.id, recordRate, records)
        .then((retryAfter) => done(retryAfter === undefined ? undefined : errors.recordRateLimited(retryAfter, recordRate)), done);
    };
    const takeSlot = (request: FastifyRequest, reply: FastifyReply, key: ApiKeyRecord, done: (error?: Error) => void): void => {
      deps.bulkSlots.take(key.id).then((release) => {
        if (!release) return done(errors.tooManyBulkCalls(deps.bulkSlots.max));
        const response = reply.raw;
        // The connection may have gone while the slot was being taken: nothing would say so again.
        if (response.destroyed || response.writableFinished) {
          release();
          return done();
        }
        // Given back once the answer is ready to go (onSend below), not when its last byte has
        // left: a client that sends its next call as soon as it has read an answer must find the
        // slot free. A call whose connection closes first gives it back then.
        request.releaseBulkSlot = release;
        response.once('close', release);
        done();
      }, done);
    };
    const admit = (request: FastifyRequest, reply: FastifyReply, key: ApiKeyRecord | undefined, done: (error?: Error) => void): void => {
      if (!key) return done(errors.invalidApiKey());
      if (!auth.services.some((service) => key.services.includes(service))) return done(errors.keyNotPermitted());
      // Reserved, not just checked: concurrent calls cannot all pass one check before any counts.
      reserve(request, key, 1, done, () => {
        if (!auth.rateLimited) return bulk ? takeSlot(request, reply, key, done) : done();
        deps.limiter.consume(key.id, key.rate).then((retryAfter) => {
          if (retryAfter !== undefined) return done(errors.rateLimited(retryAfter));
          if (bulk) return takeSlot(request, reply, key, done);
          if (!auth.recordRated || key.recordRate === null) return done();
          consumeRecords(key, key.recordRate, 1, done);
        }, done);
      });
    };
    const hook: onRequestHookHandler = (request, reply, done) => {
      const presented = presentedKey(request, auth.source);
      // A cached key is answered without a wait; only a miss goes to the store.
      const cached = deps.authenticator.peek(presented);
      if (cached !== NOT_CACHED) return admit(request, reply, cached, done);
      deps.authenticator.authenticate(presented).then(
        (key) => admit(request, reply, key, done),
        (error: Error) => done(error),
      );
    };
    const existing = route.onRequest;
    route.onRequest = existing === undefined ? [hook] : Array.isArray(existing) ? [hook, ...existing] : [hook, existing];
    if (auth.perRecord) {
      const perRecord = auth.perRecord;
      // Once the body is read: the rest of a bulk call's records, for the quota (billing), and all
      // of them for the key's record rate when it has one. For the rate a bulk call is one call,
      // already counted: the contract limits calls a second.
      const charge: preHandlerHookHandler = (request, _reply, done) => {
        const key = request.apiKey!;
        const records = Array.isArray(request.body) ? request.body.length : 0;
        if (records < 1 || records > perRecord.maxRecords) return done();
        const extra = records - 1;
        const rate = () => (!auth.recordRated || key.recordRate === null ? done() : consumeRecords(key, key.recordRate, records, done));
        if (extra > 0) reserve(request, key, extra, done, rate);
        else rate();
      };
      const before = route.preHandler;
      route.preHandler = before === undefined ? [charge] : Array.isArray(before) ? [charge, ...before] : [charge, before];
    }
    if (bulk) {
      const giveBack: onSendHookHandler = (request, _reply, payload, done) => {
        request.releaseBulkSlot?.();
        done(null, payload);
      };
      const sending = route.onSend;
      route.onSend = sending === undefined ? [giveBack] : Array.isArray(sending) ? [giveBack, ...sending] : [giveBack, sending];
    }
  });
}

function presentedKey(request: FastifyRequest, source: 'query' | 'header'): string | undefined {
  const value = source === 'query' ? (request.query as ParsedQuery).api_key : request.headers.api_key;
  // A repeated key is ambiguous: treat it as no key rather than guess which one was meant.
  return typeof value === 'string' ? value : undefined;
}
