/**
 * Authentication as decisions §3 describes it, for every route that declares `config.auth`:
 * query key on real-time and bulk routes, header key on the List API (a key sent only in the
 * query there is not read), 401 for a missing/unknown/revoked/unpermitted key, 403 for an
 * exhausted quota, then 429 past the key's rate on rate-limited routes. One hook, in that order:
 * every extra hook is a promise per request on the hot path.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { KeyAuthenticator } from '../accounts/key-authenticator.js';
import type { UsageMeter } from '../accounts/usage-meter.js';
import { errors } from '../core/errors.js';
import { MALFORMED, type ParsedQuery } from './query-string.js';
import type { KeyRateLimiter } from './rate-limit.js';

export function installAuth(app: FastifyInstance, deps: { authenticator: KeyAuthenticator; meter: UsageMeter; limiter: KeyRateLimiter }): void {
  app.addHook('onRequest', async (request) => {
    if ((request.query as ParsedQuery)[MALFORMED]) throw errors.notUrlEncoded();
  });
  // The auth hook is attached per route with its config in a closure: reading
  // request.routeOptions builds a fresh object on every access, a measurable cost on the hot path.
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if (!auth) return;
    const hook = async (request: FastifyRequest) => {
      const key = await deps.authenticator.authenticate(presentedKey(request, auth.source));
      if (!key) throw errors.invalidApiKey();
      if (!auth.services.some((service) => key.services.includes(service))) throw errors.keyNotPermitted();
      if (!deps.meter.withinQuota(key)) throw errors.quotaExceeded();
      request.apiKey = key;
      if (auth.rateLimited) {
        const retryAfter = await deps.limiter.consume(key.id, key.rate);
        if (retryAfter !== undefined) throw errors.rateLimited(retryAfter);
      }
    };
    const existing = route.onRequest;
    route.onRequest = existing === undefined ? [hook] : Array.isArray(existing) ? [hook, ...existing] : [hook, existing];
  });
}

function presentedKey(request: FastifyRequest, source: 'query' | 'header'): string | undefined {
  const value = source === 'query' ? (request.query as ParsedQuery).api_key : request.headers.api_key;
  // A repeated key is ambiguous: treat it as no key rather than guess which one was meant.
  return typeof value === 'string' ? value : undefined;
}
