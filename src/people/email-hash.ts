/**
 * The one preparation of an address for storage and hashing (api-reference `/v5/td`: "lower-cased
 * and stripped of white space before hashing"), so stored hashes match what clients send.
 */
import { hash } from 'node:crypto';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Lower-case hex SHA-1 of the normalised address. */
export function sha1Hex(email: string): string {
  return hash('sha1', normalizeEmail(email), 'hex');
}

/** Lower-case hex MD5 of the normalised address. */
export function md5Hex(email: string): string {
  return hash('md5', normalizeEmail(email), 'hex');
}
