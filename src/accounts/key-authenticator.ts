/**
 * Turns a presented key into its record. Records are cached for a few seconds so that the hot
 * path does not query the database on every call; a revoke or update made by the CLI (another
 * process) therefore takes effect within `ttlMs`.
 */
import type { Clock } from '../core/clock.js';
import type { KeyStore } from './key-store.js';
import type { ApiKeyRecord } from './key-config.js';
import { apiKeyDigest, looksLikeApiKey, sameDigest } from './api-key.js';

export interface KeyAuthenticator {
  /** The active key record, or undefined for a missing, unknown or revoked key. */
  authenticate(presented: string | undefined): Promise<ApiKeyRecord | undefined>;
  /**
   * What `authenticate` would answer, without a wait, when the answer is cached; `NOT_CACHED`
   * otherwise. The hot path asks this first and awaits only on a miss.
   */
  peek(presented: string | undefined): ApiKeyRecord | undefined | typeof NOT_CACHED;
  /** Drops cached records, e.g. after this process changed a key. */
  invalidate(): void;
}

export const NOT_CACHED = Symbol('not cached');

const MAX_CACHED = 10_000;

interface Cached {
  record: ApiKeyRecord | undefined;
  /** The record's stored hash as bytes, decoded once. */
  digest: Buffer | undefined;
  expires: number;
}

export function createKeyAuthenticator(store: KeyStore, clock: Clock, ttlMs = 5_000): KeyAuthenticator {
  const cache = new Map<string, Cached>();

  // The lookup is by hash; comparing again in constant time keeps a timing side channel out
  // even if a store ever matched by prefix or collation.
  const answer = (entry: Cached, presented: Buffer): ApiKeyRecord | undefined =>
    entry.record && entry.record.revokedAt === null && entry.digest && sameDigest(entry.digest, presented) ? entry.record : undefined;

  return {
    peek(presented) {
      if (presented === undefined || !looksLikeApiKey(presented)) return undefined;
      const digest = apiKeyDigest(presented);
      const hit = cache.get(digest.toString('hex'));
      return hit && hit.expires > clock.now() ? answer(hit, digest) : NOT_CACHED;
    },
    async authenticate(presented) {
      if (presented === undefined || !looksLikeApiKey(presented)) return undefined;
      const digest = apiKeyDigest(presented);
      const hash = digest.toString('hex');
      const now = clock.now();
      let entry = cache.get(hash);
      if (!entry || entry.expires <= now) {
        const record = await store.findByHash(hash);
        entry = { record, digest: record ? Buffer.from(record.keyHash, 'hex') : undefined, expires: now + ttlMs };
        // Unknown keys are cached too, so a flood of bad keys does not become a flood of queries.
        if (cache.size >= MAX_CACHED) cache.clear();
        cache.set(hash, entry);
      }
      return answer(entry, digest);
    },
    invalidate() {
      cache.clear();
    },
  };
}
