/**
 * The form an address or domain takes in a suppression, exception or policy list: what
 * verification looks up (lower-case address with an A-label domain, or an A-label domain).
 */
import { checkDomain, domainCharFault } from './syntax-domain.js';
import { classifySyntax } from './syntax.js';

export function addressListValue(input: string): { value: string } | { problem: string } {
  const verdict = classifySyntax(input);
  if (!verdict.ok) return { problem: `not a valid address (${verdict.reason})` };
  return { value: `${verdict.address.slice(0, verdict.address.lastIndexOf('@'))}@${verdict.asciiDomain}` };
}

/**
 * The host-name rules of an address's domain (syntax-domain.ts), so a list never holds a name no
 * address can have: `domainToASCII` alone lets `../../etc/passwd` through as `..`.
 */
export function domainListValue(input: string): { value: string } | { problem: string } {
  const name = input.replace(/\.$/, '');
  if (domainCharFault(name)) return { problem: 'not a domain name' };
  const checked = checkDomain(name);
  // checkDomain leaves the lengths of an all-ASCII name to classifySyntax; a list checks them here.
  const tooLong = checked.ok && (checked.ascii.length > 253 || checked.ascii.split('.').some((label) => label.length > 63));
  return checked.ok && !tooLong ? { value: checked.ascii } : { problem: 'not a domain name' };
}
