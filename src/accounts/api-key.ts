/**
 * Key material: random, URL-safe (published clients put the key into the URL unencoded), shown
 * once, stored only as a SHA-256 hash. A key carries ≥ 192 random bits, so a fast unsalted hash is
 * enough: there is nothing to brute-force that is not already 2^192 wide.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_PREFIX = 'ms_';
const KEY_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(24).toString('base64url');
}

export function generateWebhookSecret(): string {
  return 'whsec_' + randomBytes(32).toString('base64url');
}

export function hashApiKey(key: string): string {
  // crypto.hash: one call, no Hash object (a third of createHash's cost on the hot path).
  return hash('sha256', key, 'hex');
}

/** The same digest as bytes, for `sameDigest`. */
export function apiKeyDigest(key: string): Buffer {
  return hash('sha256', key, 'buffer');
}

/** The part of a key an operator may see again in `keys list`. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6);
}

/** Cheap shape check before any hashing or lookup: rejects junk and oversized input early. */
export function looksLikeApiKey(candidate: string): boolean {
  return KEY_PATTERN.test(candidate);
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameHash(a: string, b: string): boolean {
  return sameDigest(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

/** Constant-time comparison of two digests of equal length. */
export function sameDigest(left: Buffer, right: Buffer): boolean {
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
