// The syntax stage's result types. Codes are the public status codes (api-reference "Status
// codes"); `rule` is our own finer, stable name for the fault so callers and tests need not match
// on the English `reason`.
import type { SyntaxCode } from './codes.js';

export type { SyntaxCode } from './codes.js';

export type SyntaxRule =
  | 'empty'
  | 'input-too-long'
  | 'no-at-sign'
  | 'multiple-at-signs'
  | 'outer-whitespace'
  | 'trailing-dot'
  | 'unquoted-space'
  | 'no-local-part'
  | 'no-domain'
  | 'local-too-long'
  | 'label-too-long'
  | 'domain-too-long'
  | 'address-too-long'
  | 'control-character'
  | 'unsafe-character'
  | 'leading-combining-mark'
  | 'local-invalid-character'
  | 'domain-invalid-character'
  | 'unclosed-quote'
  | 'text-after-quoted-string'
  | 'invalid-quoted-pair'
  | 'misplaced-quote'
  | 'local-leading-dot'
  | 'local-trailing-dot'
  | 'local-consecutive-dots'
  | 'domain-literal'
  | 'domain-literal-malformed'
  | 'domain-leading-dot'
  | 'domain-consecutive-dots'
  | 'dotless-domain'
  | 'label-hyphen'
  | 'reserved-label'
  | 'idna-invalid'
  | 'idna-not-canonical'
  | 'tld-numeric'
  | 'tld-reserved'
  | 'tld-unknown'
  | 'provider-username';

export type SyntaxVerdict =
  | { ok: true; address: string; local: string; domain: string; asciiDomain: string; roleAccount: boolean }
  | { ok: false; code: SyntaxCode; reason: string; roleAccount: boolean; rule?: SyntaxRule };

/** A fault found by one of the checks, before the role flag is attached. */
export interface SyntaxFault {
  code: SyntaxCode;
  rule: SyntaxRule;
  reason: string;
}

export function fault(code: SyntaxCode, rule: SyntaxRule, reason: string): SyntaxFault {
  return { code, rule, reason };
}
