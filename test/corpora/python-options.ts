// Which python-email-validator rows speak to our question. Each row asserts an outcome under a
// set of keyword options; we compare a row only when its options cannot make python's answer
// differ from what it would say under the option set that matches our policy.

export type PythonOptions = Record<string, unknown>;

interface OptionScope {
  /** python's default. */
  byDefault: boolean;
  /** The value matching our policy. */
  ours: boolean;
  /** Whether `true` makes python accept more (allow_*) or less (strict). */
  trueWidens: boolean;
  /** Whether the option can change python's answer for this address at all. */
  affects(address: string): boolean;
}

const localOf = (a: string): string => a.slice(0, Math.max(0, a.lastIndexOf('@')));
const domainOf = (a: string): string => a.slice(a.lastIndexOf('@') + 1);

const SCOPES: Record<string, OptionScope> = {
  // RFC 5321 quoted local parts are valid for us (isemail's RFC5321 category).
  // Only an address that opens with a quote has a quoted local part for python to refuse.
  allow_quoted_local: { byDefault: false, ours: true, trueWidens: true, affects: (a) => a.startsWith('"') },
  // RFC 5321 §4.5.3.1.1: 64 octets before the @; python enforces it (in characters after NFC)
  // only with strict=True. Octets bound both counts from above.
  strict: {
    byDefault: false,
    ours: true,
    trueWidens: false,
    affects: (a) => Buffer.byteLength(localOf(a), 'utf8') > 64,
  },
  // SMTPUTF8 usernames are syntactically valid for us (the mailbox stage checks server support).
  allow_smtputf8: { byDefault: true, ours: true, trueWidens: true, affects: (a) => [...localOf(a)].some((ch) => ch.charCodeAt(0) > 0x7f) },
  // An envelope mailbox has no display name.
  allow_display_name: { byDefault: false, ours: false, trueWidens: true, affects: (a) => a.includes('<') },
  // Address literals are refused by policy, as python does by default.
  allow_domain_literal: { byDefault: false, ours: false, trueWidens: true, affects: (a) => domainOf(a).startsWith('[') },
  allow_empty_local: { byDefault: false, ours: false, trueWidens: true, affects: (a) => /^(""|)@/.test(a) },
  // Test-environment mode accepts the reserved `test` TLD; we never do.
  test_environment: {
    byDefault: false,
    ours: false,
    trueWidens: true,
    affects: (a) => domainOf(a) === 'test' || domainOf(a).endsWith('.test'),
  },
};

/** Options that do not bear on syntax: no DNS is consulted by any row we take. */
const IRRELEVANT = new Set(['check_deliverability']);

/**
 * A row is comparable when every option that differs from our profile and could affect this
 * address pushes in a direction that cannot flip the row's outcome: a row rejected under wider
 * options is rejected under ours too; a row accepted under narrower options is accepted by ours.
 */
export function isComparable(address: string, valid: boolean, options: PythonOptions): boolean {
  let wider = false;
  let narrower = false;
  for (const [key, raw] of Object.entries(options)) {
    if (IRRELEVANT.has(key)) continue;
    const scope = SCOPES[key];
    if (scope === undefined) return false;
    const value = raw === true;
    if (value === scope.ours || !scope.affects(address)) continue;
    if (value === scope.trueWidens) wider = true;
    else narrower = true;
  }
  for (const [key, scope] of Object.entries(SCOPES)) {
    if (key in options || scope.byDefault === scope.ours || !scope.affects(address)) continue;
    if (scope.byDefault === scope.trueWidens) wider = true;
    else narrower = true;
  }
  if (!wider && !narrower) return true;
  if (wider && !narrower) return !valid;
  if (narrower && !wider) return valid;
  return false;
}
