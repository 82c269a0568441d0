/**
 * Reads a client suppression or exception file: one address or domain a line; blank lines and
 * `#` comments are skipped. Bad lines are reported with their number and never stop good ones.
 */
import { addressListValue, domainListValue } from '../verification/list-value.js';
import type { ClientListEntry, ClientListKind } from '../verification/client-list-store.js';

export function parseClientListLine(kind: ClientListKind, text: string): ClientListEntry | { reason: string } | null {
  const value = text.trim();
  if (value === '' || value.startsWith('#')) return null;
  if (value.length > 320) return { reason: 'longer than 320 characters' };
  const parsed = value.includes('@') ? addressListValue(value) : domainListValue(value);
  if ('problem' in parsed) return { reason: value.includes('@') ? parsed.problem : 'not an address or a domain name' };
  return { kind, value: parsed.value };
}
