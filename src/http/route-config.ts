/** What each route declares about authentication, so `auth.ts` can enforce it in one hook. */
import type { ApiKeyRecord, Service } from '../accounts/key-config.js';

export interface RouteAuth {
  /** Where the key is read: the `api_key` query parameter, or the `api_key` header (List API). */
  source: 'query' | 'header';
  /** The key needs at least one of these services; otherwise 401. */
  services: Service[];
  /** /v5/ev answers a bad key with plain text. */
  plainText401?: boolean;
  /** Real-time and bulk endpoints fall under the per-key rate limit. */
  rateLimited?: boolean;
  /** Bulk endpoints: a body that is not JSON, whatever its Content-Type, is `Invalid JSON`. */
  jsonBody?: boolean;
  /**
   * Bulk endpoints: the call costs one per record of its JSON array (up to `maxRecords`; a larger
   * body is the route's 400), for the quota and the rate alike.
   */
  perRecord?: { maxRecords: number };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    apiKey?: ApiKeyRecord;
    /** Gives back the calls reserved for this request (set by auth; the error path calls it). */
    releaseReservation?: () => void;
  }
}
