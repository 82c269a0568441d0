/**
 * The catalogue of verification status codes: the one place a code's number, its status in each
 * response variant and its meaning are written (api-reference "Status codes"). Stages name codes
 * (`CODE.trap`), `render.ts` reads the statuses from here, and `codes.test.ts` holds
 * docs/verification.md's "Codes by variant" table to the same rows, so the doc cannot drift.
 *
 * Codes the reference's legacy table marks "not listed" (55, 255, 535) take the legacy value of
 * their nearest neighbour.
 */

export type VerificationStatus = 'safetosend' | 'valid' | 'invalid' | 'trap' | 'catchall' | 'unknown';
export type LegacyStatus = 'valid' | 'invalid' | 'risky' | 'unverifiable' | 'unknown';

export interface CodeEntry<C extends number = number> {
  code: C;
  /** Status in the `safe_to_send` variant. */
  safeToSend: VerificationStatus;
  /** Status in the legacy `email_validation` variant (and in lists). */
  legacy: LegacyStatus;
  meaning: string;
}

// Generic so each row keeps its number as a literal type: `StatusCode` is built from them.
function row<C extends number>(code: C, safeToSend: VerificationStatus, legacy: LegacyStatus, meaning: string): CodeEntry<C> {
  return { code, safeToSend, legacy, meaning };
}

/** The syntax stage's codes (`syntax*.ts`, `tld.ts`, `provider-rules.ts`); accuracy.md has the rules. */
export const SYNTAX_CODES = {
  generalSyntax: row(100, 'invalid', 'invalid', 'general syntax error'),
  invalidCharacter: row(110, 'invalid', 'invalid', 'invalid character'),
  domainSyntax: row(115, 'invalid', 'invalid', 'invalid domain syntax'),
  usernameSyntax: row(120, 'invalid', 'invalid', 'invalid username syntax'),
  providerUsername: row(125, 'invalid', 'invalid', 'invalid username syntax for that domain'),
  tooLong: row(130, 'invalid', 'invalid', 'address too long'),
  noUsername: row(140, 'invalid', 'invalid', 'no username'),
  noDomain: row(145, 'invalid', 'invalid', 'no domain'),
  noAtSign: row(150, 'invalid', 'invalid', 'no @ sign'),
  multipleAtSigns: row(155, 'invalid', 'invalid', 'more than one @ sign'),
  invalidTld: row(200, 'invalid', 'invalid', 'invalid top-level domain'),
  extraCharacter: row(210, 'invalid', 'invalid', 'extra space or character (outer white space, trailing dot)'),
  unquotedSpace: row(215, 'invalid', 'invalid', 'unquoted spaces not allowed'),
} as const;

export const CATALOGUE = {
  timeout: row(5, 'unknown', 'unknown', 'no answer in time (DNS or SMTP), DNS failure, our resolver not trusted'),
  syntaxOk: row(10, 'valid', 'unknown', 'syntax OK, depth `syntax`'),
  domainOk: row(
    20,
    'valid',
    'unknown',
    'domain OK, mailbox not checkable (depth `domain`, accept-all provider, 4xx, policy, our port 25 blocked, a refusal of us)',
  ),
  catchAll: row(45, 'catchall', 'unverifiable', 'catch-all domain'),
  deliverable: row(50, 'safetosend', 'valid', 'mailbox accepted, domain not catch-all'),
  exception: row(55, 'valid', 'valid', 'client exception'),
  ...SYNTAX_CODES,
  suppressed: row(255, 'invalid', 'invalid', 'client suppression'),
  domainMissing: row(310, 'invalid', 'invalid', 'domain does not exist'),
  noMail: row(325, 'invalid', 'invalid', 'domain cannot receive mail'),
  noMailbox: row(400, 'invalid', 'invalid', 'mailbox does not exist'),
  mailboxFull: row(410, 'invalid', 'invalid', 'mailbox full'),
  refusesMail: row(420, 'invalid', 'invalid', 'every MX refuses connections'),
  dangerousMailbox: row(500, 'invalid', 'invalid', 'dangerous mailbox'),
  domainRejected: row(
    505,
    'invalid',
    'invalid',
    "domain not accepted: a large provider's domain misspelt (every key; the fix in `email_corrections` when it verifies), or (legacy variant) a disposable domain",
  ),
  addressRefused: row(510, 'invalid', 'invalid', 'address not accepted (UTF-8 mailbox without SMTPUTF8)'),
  bouncer: row(520, 'invalid', 'invalid', 'bouncer list (keys without `--no-bouncers`)'),
  trap: row(525, 'trap', 'risky', 'trap, complainer, disposable domain'),
  optedOut: row(530, 'trap', 'risky', 'opted out'),
  doNotEmail: row(535, 'trap', 'risky', 'do-not-email list'),
  systemError: row(999, 'unknown', 'unknown', 'our own failure'),
} as const;

type Catalogue = typeof CATALOGUE;
export type CodeName = keyof Catalogue;
/** Every code the catalogue defines; a verdict carries one of these. */
export type StatusCode = Catalogue[CodeName]['code'];
export type SyntaxCode = (typeof SYNTAX_CODES)[keyof typeof SYNTAX_CODES]['code'];

/** Name → number, for the stages: `CODE.trap` rather than 525. */
export const CODE = Object.freeze(Object.fromEntries(Object.entries(CATALOGUE).map(([name, entry]) => [name, entry.code]))) as {
  readonly [N in CodeName]: Catalogue[N]['code'];
};

/** The catalogue's rows by number. */
export const CODE_ENTRIES: ReadonlyMap<number, CodeEntry<StatusCode>> = new Map(
  Object.values(CATALOGUE).map((entry) => [entry.code, entry]),
);
