/**
 * Reads a client suppression or exception file: one address or domain a line; blank lines and
 * `#` comments are skipped. Bad lines are reported with their number and never stop good ones.
 */
import { domainToASCII } from 'node:url';
import { classifySyntax } from '../verification/syntax.js';
import type { ClientListEntry, ClientListKind } from '../storage/interfaces.js';

export interface RejectedLine {
  line: number;
  reason: string;
}

export function parseClientListLine(kind: ClientListKind, text: string): ClientListEntry | { reason: string } | null {
  const value = text.trim();
  if (value === '' || value.startsWith('#')) return null;
  if (value.length > 320) return { reason: 'longer than 320 characters' };
  if (value.includes('@')) {
    const verdict = classifySyntax(value);
    if (!verdict.ok) return { reason: `not a valid address (${verdict.reason})` };
    return { kind, value: `${verdict.address.slice(0, verdict.address.lastIndexOf('@'))}@${verdict.asciiDomain}` };
  }
  const ascii = domainToASCII(value.toLowerCase().replace(/\.$/, ''));
  if (!ascii || !ascii.includes('.') || !/^[a-z0-9.-]+$/.test(ascii)) return { reason: 'not an address or a domain name' };
  return { kind, value: ascii };
}
