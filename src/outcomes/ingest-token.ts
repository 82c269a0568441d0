/**
 * A key's outcome ingestion token: the secret an ESP's webhook URL carries
 * (`/v5/outcomes/<token>/<source>`). Its own secret, never the API key: a webhook URL is pasted
 * into an ESP's console and may be shown to people who must not call the API. Like API keys it
 * carries 192 random bits, is shown once and stored only as a SHA-256 hash; rotating it makes a
 * new one and the old one stops working at once.
 */
import { hash, randomBytes } from 'node:crypto';

const TOKEN_PREFIX = 'mso_';
const TOKEN_PATTERN = /^mso_[A-Za-z0-9_-]{32}$/;

export function generateOutcomeToken(): string {
  return TOKEN_PREFIX + randomBytes(24).toString('base64url');
}

export function hashOutcomeToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** Cheap shape check before any hashing or lookup: junk in the path is refused unread. */
export function looksLikeOutcomeToken(candidate: string): boolean {
  return TOKEN_PATTERN.test(candidate);
}
