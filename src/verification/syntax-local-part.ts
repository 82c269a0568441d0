// The part before the @: an RFC 5321 Dot-string, or a Quoted-string as a whole. RFC 6531 adds
// UTF-8 to both (SMTPUTF8); whether the receiving server speaks it is the mailbox stage's
// question. Obsolete RFC 5322 forms (quoted words joined by dots, comments, folding white space)
// cannot travel in an SMTP envelope, so they are faults here.

import { ATEXT } from './syntax-chars.js';
import { CODE } from './codes.js';
import { fault, type SyntaxFault } from './syntax-verdict.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const DOT = 0x2e;

/**
 * Index of the quote closing the quoted string that opens at `start`, or -1 when it never closes.
 * A backslash escapes the next character, so `\"` does not close it.
 */
export function findQuoteEnd(s: string, start: number): number {
  for (let i = start + 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return -1;
}

export function isQuoted(local: string): boolean {
  return local.charCodeAt(0) === QUOTE;
}

const INVALID_LOCAL_CHAR = fault(CODE.invalidCharacter, 'local-invalid-character', 'invalid character in the username');

/**
 * Code 110 for an unquoted username: a character that is neither atext, a dot nor UTF-8. A quote
 * is left to the structure check (it is a misplaced quote, code 120, not a foreign character).
 */
export function localCharFault(local: string): SyntaxFault | null {
  if (isQuoted(local)) return null;
  for (let i = 0; i < local.length; i++) {
    const c = local.charCodeAt(i);
    if (c >= 0x80 || c === DOT || c === QUOTE) continue;
    if (ATEXT[c] !== 1) return INVALID_LOCAL_CHAR;
  }
  return null;
}

const UNCLOSED_QUOTE = fault(CODE.usernameSyntax, 'unclosed-quote', 'the quoted username is not closed');
const TEXT_AFTER_QUOTE = fault(
  CODE.usernameSyntax,
  'text-after-quoted-string',
  'text after the quoted username (quotes must enclose the whole username)',
);
const BAD_QUOTED_PAIR = fault(
  CODE.usernameSyntax,
  'invalid-quoted-pair',
  'a backslash in the quoted username must be followed by a printable ASCII character',
);
const MISPLACED_QUOTE = fault(CODE.usernameSyntax, 'misplaced-quote', 'quotes must enclose the whole username');
const LEADING_DOT = fault(CODE.usernameSyntax, 'local-leading-dot', 'the username starts with a dot');
const TRAILING_DOT = fault(CODE.usernameSyntax, 'local-trailing-dot', 'the username ends with a dot');
const CONSECUTIVE_DOTS = fault(CODE.usernameSyntax, 'local-consecutive-dots', 'consecutive dots in the username');

/** Code 120: the shape of the username (dots, quoting). Characters were checked before. */
export function localStructureFault(local: string): SyntaxFault | null {
  if (isQuoted(local)) {
    const end = findQuoteEnd(local, 0);
    if (end === -1) return UNCLOSED_QUOTE;
    if (end !== local.length - 1) return TEXT_AFTER_QUOTE;
    // RFC 5321 quoted-pairSMTP is a backslash and one of %d32-126; controls were refused earlier.
    for (let i = 1; i < end; i++) {
      if (local.charCodeAt(i) === BACKSLASH) {
        const next = local.charCodeAt(i + 1);
        if (next < 0x20 || next > 0x7e) return BAD_QUOTED_PAIR;
        i++;
      }
    }
    return null;
  }
  if (local.charCodeAt(0) === DOT) return LEADING_DOT;
  let previousDot = false;
  for (let i = 0; i < local.length; i++) {
    const c = local.charCodeAt(i);
    if (c === QUOTE) return MISPLACED_QUOTE;
    if (c === DOT) {
      if (previousDot) return CONSECUTIVE_DOTS;
      previousDot = true;
    } else previousDot = false;
  }
  if (previousDot) return TRAILING_DOT;
  return null;
}

/**
 * The standardized username: lower case (mailbox names are case-insensitive in practice, and
 * deduplication needs one form) and NFC for UTF-8 (RFC 6532 §3.1 recommends it). A quoted
 * username keeps its case: quoting is how someone asks for it to travel verbatim.
 */
export function standardizeLocal(local: string, ascii: boolean): string {
  if (ascii) return isQuoted(local) ? local : local.toLowerCase();
  return (isQuoted(local) ? local : local.toLowerCase()).normalize('NFC');
}

/** The mailbox name a person would read: quotes and escapes removed. Used for role detection. */
export function unquoteLocal(local: string): string {
  if (!isQuoted(local)) return local;
  const end = local.length > 1 && local.charCodeAt(local.length - 1) === QUOTE ? local.length - 1 : local.length;
  let out = '';
  for (let i = 1; i < end; i++) {
    let c = local[i] as string;
    if (c === '\\' && i + 1 < end) c = local[++i] as string;
    out += c;
  }
  return out;
}
