// Syntax stage: can this string be used unchanged as an SMTP envelope mailbox (RFC 5321
// Mailbox, with RFC 6531 UTF-8) that a mail system on the public internet would deliver?
//
// When an input has several faults, the first check in this order decides the code, so one
// input always gets the same code:
//   150/155 the @ sign · 210 outer white space or a trailing dot · 215 inner unquoted space ·
//   140/145 empty username/domain · 130 lengths · 110 characters · 120 username shape ·
//   115 domain shape and IDNA (then 130 again, on the A-label form) · 200 top-level domain ·
//   125 provider username rules.
// @ problems come first because without one @ there is no username or domain to speak of;
// 210/215 next because trimming or removing a space is the likeliest fix (corrections use it).
//
// The input is never trimmed: leading/trailing white space is code 210 (decisions §4).

import { isTrimmable, hasUnsafeUnicode, startsWithCombiningMark, utf8Length } from './syntax-chars.js';
import { checkDomain, domainCharFault } from './syntax-domain.js';
import { findQuoteEnd, isQuoted, localCharFault, localStructureFault, standardizeLocal, unquoteLocal } from './syntax-local-part.js';
import { CODE } from './codes.js';
import { fault, type SyntaxFault, type SyntaxVerdict } from './syntax-verdict.js';
import { isRoleAccount } from './role-accounts.js';
import { providerFault } from './provider-rules.js';
import { tldFault } from './tld.js';

export type { SyntaxCode, SyntaxRule, SyntaxVerdict } from './syntax-verdict.js';

/**
 * Any real address is at most 254 octets; past this bound we stop looking so that work stays
 * bounded for hostile input, and report the length (precedence does not matter at this size).
 */
export const MAX_INPUT_LENGTH = 4096;

const QUOTE = 0x22;
const DOT = 0x2e;

const EMPTY = fault(CODE.generalSyntax, 'empty', 'the address is empty');
const INPUT_TOO_LONG = fault(CODE.tooLong, 'input-too-long', 'the address is far too long');
const NO_AT = fault(CODE.noAtSign, 'no-at-sign', 'no @ sign');
const MULTIPLE_AT = fault(CODE.multipleAtSigns, 'multiple-at-signs', 'more than one @ sign');
const OUTER_WHITESPACE = fault(CODE.extraCharacter, 'outer-whitespace', 'white space before or after the address');
const TRAILING_DOT = fault(CODE.extraCharacter, 'trailing-dot', 'the address ends with a dot');
const UNQUOTED_SPACE = fault(CODE.unquotedSpace, 'unquoted-space', 'spaces are only allowed inside a quoted username');
const NO_LOCAL = fault(CODE.noUsername, 'no-local-part', 'nothing before the @ sign');
const NO_DOMAIN = fault(CODE.noDomain, 'no-domain', 'nothing after the @ sign');
const LOCAL_TOO_LONG = fault(CODE.tooLong, 'local-too-long', 'the username is longer than 64 octets');
const DOMAIN_TOO_LONG = fault(CODE.tooLong, 'domain-too-long', 'the domain is longer than 253 characters');
const LABEL_TOO_LONG = fault(CODE.tooLong, 'label-too-long', 'a domain label is longer than 63 characters');
const ADDRESS_TOO_LONG = fault(CODE.tooLong, 'address-too-long', 'the address is longer than 254 octets');
const CONTROL_CHARACTER = fault(CODE.invalidCharacter, 'control-character', 'the address contains a control character');
const UNSAFE_CHARACTER = fault(
  CODE.invalidCharacter,
  'unsafe-character',
  'the address contains an invisible, formatting, private-use or unassigned character',
);
const LEADING_MARK = fault(CODE.invalidCharacter, 'leading-combining-mark', 'the username or domain starts with a combining mark');

export function classifySyntax(input: string): SyntaxVerdict {
  if (typeof input !== 'string' || input.length === 0) return invalid(EMPTY);
  const n = input.length;
  if (n > MAX_INPUT_LENGTH) return invalid(INPUT_TOO_LONG);

  // An @ inside a quoted username is text, not the separator, even when white space (a 210
  // fault, judged next) precedes the quote.
  let first = 0;
  while (first < n && isTrimmable(input.charCodeAt(first))) first++;
  const quoteEnd = input.charCodeAt(first) === QUOTE ? findQuoteEnd(input, first) : -1;
  const at = input.indexOf('@', quoteEnd + 1);
  if (at === -1) return invalid(NO_AT);
  if (input.indexOf('@', at + 1) !== -1) return invalid(MULTIPLE_AT);
  const local = input.slice(0, at);
  const domain = input.slice(at + 1);

  if (isTrimmable(input.charCodeAt(0)) || isTrimmable(input.charCodeAt(n - 1))) {
    return invalid(OUTER_WHITESPACE, local);
  }
  if (input.charCodeAt(n - 1) === DOT) return invalid(TRAILING_DOT, local);

  // A quoted username may hold spaces; an unclosed quote is left to the username check.
  const unquotedFrom = quoteEnd !== -1 ? quoteEnd + 1 : isQuoted(local) ? at : 0;
  if (hasSpace(input, unquotedFrom, at) || hasSpace(input, at + 1, n)) return invalid(UNQUOTED_SPACE, local);

  if (at === 0) return invalid(NO_LOCAL, local);
  if (at === n - 1) return invalid(NO_DOMAIN, local);

  const localOctets = utf8Length(input, 0, at);
  const domainOctets = utf8Length(input, at + 1, n);
  // Octets equal UTF-16 units only when every unit is ASCII.
  const localAscii = localOctets === at;
  const domainAscii = domainOctets === n - at - 1;
  if (localOctets > 64) return invalid(LOCAL_TOO_LONG, local);
  // A Unicode domain is measured on its A-label form, which is what DNS limits apply to.
  if (domainAscii && input.charCodeAt(at + 1) !== 0x5b /* [ */) {
    if (hasLongLabel(input, at + 1, n)) return invalid(LABEL_TOO_LONG, local);
    if (domainOctets > 253) return invalid(DOMAIN_TOO_LONG, local);
  }
  if (localOctets + 1 + domainOctets > 254) return invalid(ADDRESS_TOO_LONG, local);

  if (hasControl(input)) return invalid(CONTROL_CHARACTER, local);
  if (!localAscii || !domainAscii) {
    if (hasUnsafeUnicode(input)) return invalid(UNSAFE_CHARACTER, local);
    if (startsWithCombiningMark(local) || startsWithCombiningMark(domain)) return invalid(LEADING_MARK, local);
  }
  // A Unicode username is judged as typed and in NFC, the form it is stored and sent in:
  // normalization can reveal ASCII (U+037E GREEK QUESTION MARK is `;`) or hide it (`<` and
  // U+0338 compose to `≮`).
  const localForm = localAscii ? local : local.normalize('NFC');
  const charFault = localCharFault(local) ?? (localAscii ? null : localCharFault(localForm)) ?? domainCharFault(domain);
  if (charFault !== null) return invalid(charFault, local);

  const localFault = localStructureFault(localForm);
  if (localFault !== null) return invalid(localFault, local);

  const checked = checkDomain(domain);
  if (!checked.ok) return invalid(checked.fault, local);
  const ascii = checked.ascii;

  const stdLocal = standardizeLocal(local, localAscii);
  // Lower-casing and NFC can change the octet count of a Unicode username.
  const stdLocalOctets = localAscii ? localOctets : utf8Length(stdLocal);
  if (stdLocalOctets > 64) return invalid(LOCAL_TOO_LONG, local);
  const domainLongest = Math.max(ascii.length, domainAscii ? 0 : utf8Length(checked.domain));
  if (stdLocalOctets + 1 + domainLongest > 254) return invalid(ADDRESS_TOO_LONG, local);

  const tld = tldFault(ascii);
  if (tld !== null) return invalid(tld, local);

  const provider = providerFault(stdLocal, ascii);
  if (provider !== null) return invalid(provider, local);

  return {
    ok: true,
    address: `${stdLocal}@${checked.domain}`,
    local: stdLocal,
    domain: checked.domain,
    asciiDomain: ascii,
    roleAccount: isRoleAccount(unquoteLocal(stdLocal)),
  };
}

function invalid(f: SyntaxFault, local?: string): SyntaxVerdict {
  return { ok: false, code: f.code, reason: f.reason, rule: f.rule, roleAccount: roleOf(local) };
}

/** The role flag for an invalid address, when a username can be identified at all. */
function roleOf(local: string | undefined): boolean {
  if (local === undefined || local.length === 0) return false;
  const name = unquoteLocal(local.trim());
  return name.length <= 64 && isRoleAccount(name);
}

function hasSpace(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x20 || c === 0x09) return true;
  }
  return false;
}

/** C0 controls and DEL. Tab only gets here inside a quoted username, where RFC 5321 forbids it too. */
function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

function hasLongLabel(s: string, from: number, to: number): boolean {
  let start = from;
  for (let i = from; i <= to; i++) {
    if (i === to || s.charCodeAt(i) === DOT) {
      if (i - start > 63) return true;
      start = i + 1;
    }
  }
  return false;
}
