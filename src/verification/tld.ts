// Top-level domain checks (code 200). A TLD must be delegated in the root zone; the ICANN section
// of the public suffix list (shipped by tldts, updated with each release) is our offline copy.

import { parse } from 'tldts';
import { CODE } from './codes.js';
import { fault, type SyntaxFault } from './syntax-verdict.js';

/**
 * Special-use and reserved names that never reach a public mailbox, even where the public
 * suffix list carries them (it lists `onion` and `arpa` as ICANN suffixes).
 */
export const RESERVED_TLDS: ReadonlySet<string> = new Set([
  'test', // RFC 2606, RFC 6761 §6.2
  'example', // RFC 2606, RFC 6761 §6.5
  'invalid', // RFC 2606, RFC 6761 §6.4
  'localhost', // RFC 2606, RFC 6761 §6.3
  'local', // RFC 6762 (multicast DNS)
  'onion', // RFC 7686 (Tor hidden services)
  'arpa', // RFC 3172: infrastructure, never a mail domain (python-email-validator agrees)
  'alt', // RFC 9476: non-DNS name spaces
  'internal', // ICANN Board, July 2024: reserved for private use, never to be delegated
]);

const NUMERIC_TLD = fault(CODE.invalidTld, 'tld-numeric', 'the top-level domain is numeric (an IP address is not a mail domain)');
const RESERVED_TLD = fault(CODE.invalidTld, 'tld-reserved', 'the top-level domain is reserved and never receives mail');
const UNKNOWN_TLD = fault(CODE.invalidTld, 'tld-unknown', 'unknown top-level domain');

const PSL_OPTIONS = { allowPrivateDomains: false, extractHostname: false, validateHostname: false } as const;

// Answers per TLD, so tldts runs once per distinct TLD. The key space is attacker-controlled
// (any label can be a TLD), hence the cap: past it we start over rather than grow.
const icannCache = new Map<string, boolean>();
const CACHE_LIMIT = 4096;

/**
 * Delegated TLDs the public suffix list has no rule of their own for, only rules under them
 * (`co.za`, `ac.za`, …): tldts would otherwise call every address there an unknown TLD.
 */
const DELEGATED_WITHOUT_OWN_RULE: ReadonlySet<string> = new Set(['za']);

export function isIcannTld(tld: string): boolean {
  if (DELEGATED_WITHOUT_OWN_RULE.has(tld)) return true;
  let known = icannCache.get(tld);
  if (known === undefined) {
    // A sample host under the TLD: tldts matches the longest rule, and for a TLD with only
    // wildcard rules (`*.ck`) the suffix is `x.ck`, still from the ICANN section.
    known = parse(`x.${tld}`, PSL_OPTIONS).isIcann === true;
    if (icannCache.size >= CACHE_LIMIT) icannCache.clear();
    icannCache.set(tld, known);
  }
  return known;
}

/** Code 200 for the last label of an A-label (lower-case ASCII) domain, or null when it is fine. */
export function tldFault(asciiDomain: string): SyntaxFault | null {
  const tld = asciiDomain.slice(asciiDomain.lastIndexOf('.') + 1);
  if (isDigits(tld)) return NUMERIC_TLD;
  if (RESERVED_TLDS.has(tld)) return RESERVED_TLD;
  if (!isIcannTld(tld)) return UNKNOWN_TLD;
  return null;
}

function isDigits(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return s.length > 0;
}
