/**
 * The form an address or domain takes in a suppression, exception or policy list: what
 * verification looks up (lower-case address with an A-label domain, or an A-label domain).
 */
import { domainToASCII } from 'node:url';
import { classifySyntax } from './syntax.js';

export function addressListValue(input: string): { value: string } | { problem: string } {
  const verdict = classifySyntax(input);
  if (!verdict.ok) return { problem: `not a valid address (${verdict.reason})` };
  return { value: `${verdict.address.slice(0, verdict.address.lastIndexOf('@'))}@${verdict.asciiDomain}` };
}

export function domainListValue(input: string): { value: string } | { problem: string } {
  const ascii = domainToASCII(input.toLowerCase().replace(/\.$/, ''));
  if (!ascii || !ascii.includes('.') || !/^[a-z0-9.-]+$/.test(ascii)) return { problem: 'not a domain name' };
  return { value: ascii };
}
