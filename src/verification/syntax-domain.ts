// The part after the @, judged as a host name that must receive mail on the public internet:
// LDH labels (RFC 1123, RFC 5321 §4.1.2), at least two of them, and internationalised names
// accepted in their canonical IDNA form (RFC 5890/5891), validated through the A-label.

import { domainToASCII, domainToUnicode } from 'node:url';
import { LDH, isAllAscii } from './syntax-chars.js';
import { CODE } from './codes.js';
import { fault, type SyntaxFault } from './syntax-verdict.js';

const DOT = 0x2e;
const HYPHEN = 0x2d;

const INVALID_DOMAIN_CHAR = fault(CODE.invalidCharacter, 'domain-invalid-character', 'invalid character in the domain');

/** Code 110: ASCII that no host name may hold (`_`, `!`, `/`…). Non-ASCII is left to IDNA. */
export function domainCharFault(domain: string): SyntaxFault | null {
  if (domain.charCodeAt(0) === 0x5b) return null; // `[`: an address literal, judged as a whole later
  for (let i = 0; i < domain.length; i++) {
    const c = domain.charCodeAt(i);
    if (c < 0x80 && c !== DOT && LDH[c] !== 1) return INVALID_DOMAIN_CHAR;
  }
  return null;
}

export type DomainCheck = { ok: true; domain: string; ascii: string } | { ok: false; fault: SyntaxFault };

// Address literals are well defined (RFC 5321 §4.1.3) but public mail systems do not deliver to
// them: big providers refuse to send to `user@[1.2.3.4]`, receivers answer "relay denied"
// unless configured otherwise, and no MX or SPF policy can stand behind them. Deliverability
// services, python-email-validator and validator.js reject them by default; so do we.
const LITERAL = fault(CODE.domainSyntax, 'domain-literal', 'IP address literals are not accepted as mail domains');
const LITERAL_MALFORMED = fault(CODE.domainSyntax, 'domain-literal-malformed', 'malformed address literal in the domain');
const LEADING_DOT = fault(CODE.domainSyntax, 'domain-leading-dot', 'the domain starts with a dot');
const CONSECUTIVE_DOTS = fault(CODE.domainSyntax, 'domain-consecutive-dots', 'consecutive dots in the domain');
// A bare top-level domain (`user@org`, `a@b`) is a host name to the RFCs, but ICANN prohibits
// dotless names (SSAC SAC053; New gTLD Program Committee resolution, 13 August 2013; see RFC 7085)
// and MTAs treat a dotless name as local, to complete with their own domain: such an address does
// not reach a mailbox on the public internet.
const DOTLESS = fault(CODE.domainSyntax, 'dotless-domain', 'the domain needs at least one dot');
const LABEL_HYPHEN = fault(CODE.domainSyntax, 'label-hyphen', 'a domain label starts or ends with a hyphen');
// RFC 5891 §4.2.3.1: `??--` labels are reserved for IDNA; only `xn--` (an A-label) is in use.
const RESERVED_LABEL = fault(CODE.domainSyntax, 'reserved-label', 'a domain label has hyphens in the 3rd and 4th positions');
const IDNA_INVALID = fault(CODE.domainSyntax, 'idna-invalid', 'the domain is not a valid internationalised domain name');
// Full-width letters, ideographic full stops and other compatibility forms are mapped by
// browsers (UTS #46) but are not IDNA2008 U-labels, so the address cannot be used unchanged.
const IDNA_NOT_CANONICAL = fault(
  CODE.domainSyntax,
  'idna-not-canonical',
  'the domain holds characters that are not allowed in an internationalised domain name',
);
const DOMAIN_TOO_LONG = fault(CODE.tooLong, 'domain-too-long', 'the domain is longer than 253 characters');
const LABEL_TOO_LONG = fault(CODE.tooLong, 'label-too-long', 'a domain label is longer than 63 characters');

/**
 * Codes 115 (shape and IDNA) and 130 (lengths measured on the A-label form). `domain` keeps the
 * form the input used, lower-cased (and NFC for Unicode); `ascii` is the A-label form for DNS.
 */
export function checkDomain(domain: string): DomainCheck {
  if (domain.charCodeAt(0) === 0x5b) {
    const closed = domain.charCodeAt(domain.length - 1) === 0x5d && domain.indexOf(']') === domain.length - 1;
    return { ok: false, fault: closed && domain.indexOf('[', 1) === -1 ? LITERAL : LITERAL_MALFORMED };
  }
  const ascii = isAllAscii(domain);
  const lower = ascii ? domain.toLowerCase() : domain.toLowerCase().normalize('NFC');
  let labels = 0;
  let hasALabel = false;
  let start = 0;
  for (let i = 0; i <= lower.length; i++) {
    if (i < lower.length && lower.charCodeAt(i) !== DOT) continue;
    if (i === start) return { ok: false, fault: start === 0 ? LEADING_DOT : CONSECUTIVE_DOTS };
    if (lower.charCodeAt(start) === HYPHEN || lower.charCodeAt(i - 1) === HYPHEN) {
      return { ok: false, fault: LABEL_HYPHEN };
    }
    if (i - start >= 4 && lower.charCodeAt(start + 2) === HYPHEN && lower.charCodeAt(start + 3) === HYPHEN) {
      if (lower.charCodeAt(start) !== 0x78 || lower.charCodeAt(start + 1) !== 0x6e) {
        return { ok: false, fault: RESERVED_LABEL };
      }
      hasALabel = true;
    }
    labels++;
    start = i + 1;
  }
  if (labels < 2) return { ok: false, fault: DOTLESS };
  if (ascii && !hasALabel) return { ok: true, domain: lower, ascii: lower };

  const aForm = domainToASCII(lower);
  if (aForm === '') return { ok: false, fault: IDNA_INVALID };
  if (!isLdhHost(aForm) || !isCanonical(lower, aForm)) return { ok: false, fault: IDNA_NOT_CANONICAL };
  if (aForm.length > 253) return { ok: false, fault: DOMAIN_TOO_LONG };
  if (hasLongLabel(aForm)) return { ok: false, fault: LABEL_TOO_LONG };
  return { ok: true, domain: lower, ascii: aForm };
}

/**
 * True when UTS #46 processing changed nothing but the encoding: same labels, each U-label
 * round-trips, each ASCII label (A-labels included) is already what DNS will see.
 */
function isCanonical(input: string, aForm: string): boolean {
  const inLabels = input.split('.');
  const aLabels = aForm.split('.');
  if (inLabels.length !== aLabels.length) return false;
  const uLabels = domainToUnicode(aForm).split('.');
  for (let i = 0; i < inLabels.length; i++) {
    const label = inLabels[i] as string;
    if (isAllAscii(label)) {
      if (label !== aLabels[i]) return false;
    } else if (label !== uLabels[i]) return false;
  }
  return true;
}

/** NFC and UTS #46 can turn a Unicode character into ASCII punctuation (U+037E is `;`). */
function isLdhHost(host: string): boolean {
  for (let i = 0; i < host.length; i++) {
    const c = host.charCodeAt(i);
    if (c >= 0x80 || (c !== DOT && LDH[c] !== 1)) return false;
  }
  return true;
}

function hasLongLabel(host: string): boolean {
  let start = 0;
  for (let i = 0; i <= host.length; i++) {
    if (i === host.length || host.charCodeAt(i) === DOT) {
      if (i - start > 63) return true;
      start = i + 1;
    }
  }
  return false;
}
