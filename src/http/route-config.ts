/** What each route declares about authentication, so `auth.ts` can enforce it in one hook. */
import type { ApiKeyRecord, Service } from '../accounts/key-config.js';

export interface RouteAuth {
  /** Where the key is read: the `api_key` query parameter, or the `api_key` header (List API). */
  source: 'query' | 'header';
  /** The key needs at least one of these services; otherwise 401. */
  services: Service[];
  /** /v5/ev answers a bad key with plain text. */
  plainText401?: boolean;
  /** Real-time and bulk endpoints (and the List API) fall under the per-key rate limit: calls a second. */
  rateLimited?: boolean;
  /**
   * Real-time and bulk endpoints: the call's records (one, or a bulk call's array) count against
   * the key's record rate, when it has one.
   */
  recordRated?: boolean;
  /** Bulk endpoints: a body that is not JSON, whatever its Content-Type, is `Invalid JSON`. */
  jsonBody?: boolean;
  /**
   * Bulk endpoints: the call costs one per record of its JSON array against the quota (up to
   * `maxRecords`; a larger body is the route's 400); for the rate it is one call.
   */
  perRecord?: { maxRecords: number };
}

/**
 * A request body the route reads itself (a multipart stream, a bulk array checked by hand, an
 * optional body), so it has no `schema.body`: the OpenAPI document shows this one (http/openapi.ts).
 */
export interface OpenApiBody {
  schema: unknown;
  contentType: 'application/json' | 'multipart/form-data';
  required: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    openapiBody?: OpenApiBody;
    /** A list upload: its body has the upload's deadline, not a JSON body's (body-deadlines.ts). */
    upload?: boolean;
  }
  interface FastifyRequest {
    apiKey?: ApiKeyRecord;
    /** Gives back the calls reserved for this request (set by auth; the error path calls it). */
    releaseReservation?: () => void;
    /** Gives back the key's bulk-call slot this request holds (set by auth on bulk routes). */
    releaseBulkSlot?: () => void;
  }
}
