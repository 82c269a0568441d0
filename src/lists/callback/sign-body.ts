/**
 * Callback signing (decisions §6): `X-Mailsure-Signature: sha256=<hex HMAC-SHA256 of the exact
 * body bytes>` under the key's webhook secret. Receivers recompute it over the raw body and
 * compare in constant time (`verifySignature` does, for our tests and the client library).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Mailsure-Signature';

export function signBody(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export function verifySignature(secret: string, body: string | Buffer, header: string | undefined): boolean {
  if (header === undefined) return false;
  const expected = Buffer.from(signBody(secret, body));
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}
