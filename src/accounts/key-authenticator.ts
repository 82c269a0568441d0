/**
 * Turns a presented key into its record. Records are cached for a few seconds so that the hot
 * path does not query the database on every call; a revoke or update made by the CLI (another
 * process) therefore takes effect within `ttlMs`.
 */
import type { Clock } from '../core/clock.js';
import type { KeyStore } from '../storage/interfaces.js';
import type { ApiKeyRecord } from './key-config.js';
import { hashApiKey, looksLikeApiKey, sameHash } from './api-key.js';

export interface KeyAuthenticator {
  /** The active key record, or undefined for a missing, unknown or revoked key. */
  authenticate(presented: string | undefined): Promise<ApiKeyRecord | undefined>;
  /** Drops cached records, e.g. after this process changed a key. */
  invalidate(): void;
}

const MAX_CACHED = 10_000;

export function createKeyAuthenticator(store: KeyStore, clock: Clock, ttlMs = 5_000): KeyAuthenticator {
  const cache = new Map<string, { record: ApiKeyRecord | undefined; expires: number }>();

  return {
    async authenticate(presented) {
      if (presented === undefined || !looksLikeApiKey(presented)) return undefined;
      const hash = hashApiKey(presented);
      const now = clock.now();
      const hit = cache.get(hash);
      let record: ApiKeyRecord | undefined;
      if (hit && hit.expires > now) {
        record = hit.record;
      } else {
        record = await store.findByHash(hash);
        // Unknown keys are cached too, so a flood of bad keys does not become a flood of queries.
        if (cache.size >= MAX_CACHED) cache.clear();
        cache.set(hash, { record, expires: now + ttlMs });
      }
      if (!record || record.revokedAt !== null) return undefined;
      // The lookup was by hash; comparing again in constant time keeps a timing side channel
      // out even if a store ever matched by prefix or collation.
      return sameHash(record.keyHash, hash) ? record : undefined;
    },
    invalidate() {
      cache.clear();
    },
  };
}
