/**
 * Key material: random, URL-safe (published clients put the key into the URL unencoded), shown
 * once, stored only as a SHA-256 hash. A key carries ≥ 192 random bits, so a fast unsalted hash is
 * enough: there is nothing to brute-force that is not already 2^192 wide.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_PREFIX = 'ms_';
const KEY_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(24).toString('base64url');
}

export function generateWebhookSecret(): string {
  return 'whsec_' + randomBytes(32).toString('base64url');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
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
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
