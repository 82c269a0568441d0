/**
 * The catalogue of verification status codes: the one place a code's number, its status in each
 * response variant, its meaning and the rules that can give it are written (api-reference "Status
 * codes"). Stages name codes (`CODE.trap`) through their rules (rules.ts: each rule's decision
 * lives in its stage's file), `render.ts` reads the statuses from here, and `codes.test.ts` holds
 * docs/verification.md's "Codes by variant" table to the same rows, so the doc cannot drift, and
 * each code's rules to the rule catalogue.
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
  /**
   * The rules that can give this code (rules.ts ids; codes.test.ts holds this list and each rule's
   * `codes` to each other, both ways): where to look for what decided a verdict with it.
   */
  rules: readonly string[];
}

// Generic so each row keeps its number as a literal type: `StatusCode` is built from them.
function row<C extends number>(
  code: C,
  safeToSend: VerificationStatus,
  legacy: LegacyStatus,
  meaning: string,
  rules: readonly string[],
): CodeEntry<C> {
  return { code, safeToSend, legacy, meaning, rules };
}

/** The syntax stage's codes (`syntax*.ts`, `tld.ts`, `provider-rules.ts`); accuracy.md has the rules. */
export const SYNTAX_CODES = {
  generalSyntax: row(100, 'invalid', 'invalid', 'general syntax error', ['syntax.empty', 'syntax.general']),
  invalidCharacter: row(110, 'invalid', 'invalid', 'invalid character', [
    'syntax.control-character',
    'syntax.unsafe-character',
    'syntax.leading-combining-mark',
    'syntax.local-invalid-character',
    'syntax.domain-invalid-character',
  ]),
  domainSyntax: row(115, 'invalid', 'invalid', 'invalid domain syntax', [
    'syntax.domain-literal',
    'syntax.domain-literal-malformed',
    'syntax.domain-leading-dot',
    'syntax.domain-consecutive-dots',
    'syntax.dotless-domain',
    'syntax.label-hyphen',
    'syntax.reserved-label',
    'syntax.idna-invalid',
    'syntax.idna-not-canonical',
  ]),
  usernameSyntax: row(120, 'invalid', 'invalid', 'invalid username syntax', [
    'syntax.unclosed-quote',
    'syntax.text-after-quoted-string',
    'syntax.invalid-quoted-pair',
    'syntax.misplaced-quote',
    'syntax.local-leading-dot',
    'syntax.local-trailing-dot',
    'syntax.local-consecutive-dots',
  ]),
  providerUsername: row(125, 'invalid', 'invalid', 'invalid username syntax for that domain', ['syntax.provider-username']),
  tooLong: row(130, 'invalid', 'invalid', 'address too long', [
    'syntax.input-too-long',
    'syntax.local-too-long',
    'syntax.label-too-long',
    'syntax.domain-too-long',
    'syntax.address-too-long',
  ]),
  noUsername: row(140, 'invalid', 'invalid', 'no username', ['syntax.no-local-part']),
  noDomain: row(145, 'invalid', 'invalid', 'no domain', ['syntax.no-domain']),
  noAtSign: row(150, 'invalid', 'invalid', 'no @ sign', ['syntax.no-at-sign']),
  multipleAtSigns: row(155, 'invalid', 'invalid', 'more than one @ sign', ['syntax.multiple-at-signs']),
  invalidTld: row(200, 'invalid', 'invalid', 'invalid top-level domain', [
    'syntax.tld-numeric',
    'syntax.tld-reserved',
    'syntax.tld-unknown',
  ]),
  extraCharacter: row(210, 'invalid', 'invalid', 'extra space or character (outer white space, trailing dot)', [
    'syntax.outer-whitespace',
    'syntax.trailing-dot',
  ]),
  unquotedSpace: row(215, 'invalid', 'invalid', 'unquoted spaces not allowed', ['syntax.unquoted-space']),
} as const;

export const CATALOGUE = {
  timeout: row(5, 'unknown', 'unknown', 'no answer in time (DNS or SMTP), DNS failure, our resolver not trusted', [
    'dns.resolver-not-trusted',
    'dns.unanswered',
    'mailbox.timeout',
  ]),
  syntaxOk: row(10, 'valid', 'unknown', 'syntax OK, depth `syntax`', ['syntax.ok']),
  domainOk: row(
    20,
    'valid',
    'unknown',
    'domain OK, mailbox not checkable (depth `domain`, accept-all provider, 4xx, policy, our port 25 blocked, a refusal of us)',
    [
      'depth.domain',
      'provider.accepts-all',
      'health.egress-blocked',
      'mailbox.accepted-unproven',
      'mailbox.temporary',
      'mailbox.refusal-of-us',
      'mailbox.policy',
      'mailbox.throttled',
      'mailbox.no-reply',
      'mailbox.refusals-not-trusted',
      'mailbox.egress-failed',
      'mailbox.session-failed',
    ],
  ),
  catchAll: row(45, 'catchall', 'unverifiable', 'catch-all domain', ['catch-all.known', 'health.egress-blocked', 'mailbox.catch-all']),
  deliverable: row(50, 'safetosend', 'valid', 'mailbox accepted, domain not catch-all', ['memory.remembered', 'mailbox.accepted']),
  exception: row(55, 'valid', 'valid', 'client exception', ['list.client-exception']),
  ...SYNTAX_CODES,
  suppressed: row(255, 'invalid', 'invalid', 'client suppression', ['list.client-suppression']),
  domainMissing: row(310, 'invalid', 'invalid', 'domain does not exist', ['dns.nxdomain']),
  noMail: row(325, 'invalid', 'invalid', 'domain cannot receive mail', ['dns.null-mx', 'dns.no-mail-route', 'dns.no-public-mx-address']),
  noMailbox: row(400, 'invalid', 'invalid', 'mailbox does not exist', ['memory.remembered', 'mailbox.unknown-user']),
  mailboxFull: row(410, 'invalid', 'invalid', 'mailbox full', ['memory.remembered', 'mailbox.full']),
  refusesMail: row(420, 'invalid', 'invalid', 'every MX refuses connections', ['mailbox.every-mx-refuses']),
  dangerousMailbox: row(500, 'invalid', 'invalid', 'dangerous mailbox', ['address.dangerous-mailbox']),
  domainRejected: row(
    505,
    'invalid',
    'invalid',
    "domain not accepted: a large provider's domain misspelt (every key; the fix in `email_corrections` when it verifies), or (legacy variant) a disposable domain",
    ['typo.large-provider'],
  ),
  addressRefused: row(510, 'invalid', 'invalid', 'address not accepted (UTF-8 mailbox without SMTPUTF8)', ['mailbox.address-not-sendable']),
  bouncer: row(520, 'invalid', 'invalid', 'bouncer list (keys without `--no-bouncers`)', ['list.bouncer']),
  trap: row(525, 'trap', 'risky', 'trap, complainer, disposable domain', ['list.trap', 'list.complainer', 'domain.disposable']),
  optedOut: row(530, 'trap', 'risky', 'opted out', ['list.optout']),
  doNotEmail: row(535, 'trap', 'risky', 'do-not-email list', ['list.do-not-email']),
  systemError: row(999, 'unknown', 'unknown', 'our own failure', ['system.error']),
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
