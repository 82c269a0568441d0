/**
 * The catalogue of verification rules: the one place a rule's stable id, the stage it belongs
 * to, the codes it can give (codes.ts) and its one-line meaning are written. A verdict's evidence
 * (`explain=true`) names the rule that decided it; docs/verification.md's "Rules" table holds the
 * same rows (rules.test.ts), each id its own anchor there (`#rule-<id with dots as dashes>`).
 *
 * Ids are `<stage>.<what>`, lower-case with dashes, and never change meaning once shipped: a
 * client may key on them. The syntax stage's ids are its own fault names (syntax-verdict.ts).
 *
 * Where each rule is applied: the syntax stage's in syntax*.ts, tld.ts and provider-rules.ts; every
 * other in its stage's decision file, which returns a `Decision` (the rule and its code together):
 * decide-address.ts (typo, dangerous mailbox, depth `syntax`, our own failure), decide-lists.ts,
 * decide-domain.ts (the domain's name and DNS, the resolver's trust, depth `domain`, a provider
 * that accepts all) and decide-mailbox.ts with mailbox-stage.ts (memory, catch-all, port 25, the
 * probe). verify-service.ts only runs the stages in order; it decides no code itself. codes.ts
 * lists, for each code, the rules that can give it (codes.test.ts holds the two to each other).
 */
import { CODE, type StatusCode } from './codes.js';
import type { VerdictLimit } from './health/health-state.js';
import type { SyntaxRule } from './syntax-verdict.js';

export interface RuleEntry {
  id: string;
  /** The codes this rule can give (a syntax rule one; a fact that depends on depth or profile several). */
  codes: readonly StatusCode[];
  summary: string;
}

function rule(id: string, codes: StatusCode | readonly StatusCode[], summary: string): RuleEntry {
  return { id, codes: typeof codes === 'number' ? [codes] : codes, summary };
}

/** Each syntax fault's code (the syntax modules' `fault(...)` constants; rules.test.ts checks them against the classifier). */
const SYNTAX: Record<SyntaxRule, [StatusCode, string]> = {
  empty: [CODE.generalSyntax, 'the address is empty'],
  'input-too-long': [CODE.tooLong, 'the input is far longer than any address'],
  'no-at-sign': [CODE.noAtSign, 'no @ sign'],
  'multiple-at-signs': [CODE.multipleAtSigns, 'more than one @ sign'],
  'outer-whitespace': [CODE.extraCharacter, 'white space before or after the address'],
  'trailing-dot': [CODE.extraCharacter, 'the address ends with a dot'],
  'unquoted-space': [CODE.unquotedSpace, 'a space outside a quoted username'],
  'no-local-part': [CODE.noUsername, 'nothing before the @ sign'],
  'no-domain': [CODE.noDomain, 'nothing after the @ sign'],
  'local-too-long': [CODE.tooLong, 'the username is longer than 64 octets'],
  'label-too-long': [CODE.tooLong, 'a domain label is longer than 63 characters'],
  'domain-too-long': [CODE.tooLong, 'the domain is longer than 253 characters'],
  'address-too-long': [CODE.tooLong, 'the address is longer than 254 octets'],
  'control-character': [CODE.invalidCharacter, 'a control character'],
  'unsafe-character': [CODE.invalidCharacter, 'an invisible, formatting, private-use or unassigned character'],
  'leading-combining-mark': [CODE.invalidCharacter, 'the username or domain starts with a combining mark'],
  'local-invalid-character': [CODE.invalidCharacter, 'a character not allowed in a username'],
  'domain-invalid-character': [CODE.invalidCharacter, 'a character not allowed in a domain'],
  'unclosed-quote': [CODE.usernameSyntax, 'the quoted username is not closed'],
  'text-after-quoted-string': [CODE.usernameSyntax, 'text after the quoted username'],
  'invalid-quoted-pair': [CODE.usernameSyntax, 'an invalid escape in the quoted username'],
  'misplaced-quote': [CODE.usernameSyntax, 'quotes that do not enclose the whole username'],
  'local-leading-dot': [CODE.usernameSyntax, 'the username starts with a dot'],
  'local-trailing-dot': [CODE.usernameSyntax, 'the username ends with a dot'],
  'local-consecutive-dots': [CODE.usernameSyntax, 'consecutive dots in the username'],
  'domain-literal': [CODE.domainSyntax, 'an IP address literal as the domain'],
  'domain-literal-malformed': [CODE.domainSyntax, 'a malformed address literal'],
  'domain-leading-dot': [CODE.domainSyntax, 'the domain starts with a dot'],
  'domain-consecutive-dots': [CODE.domainSyntax, 'consecutive dots in the domain'],
  'dotless-domain': [CODE.domainSyntax, 'a domain without a dot'],
  'label-hyphen': [CODE.domainSyntax, 'a domain label starts or ends with a hyphen'],
  'reserved-label': [CODE.domainSyntax, 'a domain label with hyphens in the 3rd and 4th positions'],
  'idna-invalid': [CODE.domainSyntax, 'not a valid internationalised domain name'],
  'idna-not-canonical': [CODE.domainSyntax, 'an internationalised domain name not in its canonical form'],
  'tld-numeric': [CODE.invalidTld, 'a numeric top-level domain'],
  'tld-reserved': [CODE.invalidTld, 'a reserved top-level domain'],
  'tld-unknown': [CODE.invalidTld, 'an unknown top-level domain'],
  'provider-username': [CODE.providerUsername, 'not a possible username at that provider (its published rules)'],
};

export const RULES = {
  ...(Object.fromEntries(
    Object.entries(SYNTAX).map(([name, [code, summary]]) => [`syntax.${name}`, rule(`syntax.${name}`, code, summary)]),
  ) as Record<`syntax.${SyntaxRule}`, RuleEntry>),
  'syntax.general': rule('syntax.general', CODE.generalSyntax, 'not an address (no finer fault named)'),
  'syntax.ok': rule('syntax.ok', CODE.syntaxOk, 'well-formed; depth `syntax` stops here'),
  'typo.large-provider': rule('typo.large-provider', CODE.domainRejected, "a large provider's domain misspelt (gmial.com)"),
  'list.client-exception': rule('list.client-exception', CODE.exception, "on the key's own exception list"),
  'list.client-suppression': rule('list.client-suppression', CODE.suppressed, "on the key's own suppression list"),
  'list.trap': rule('list.trap', CODE.trap, 'on the shared trap list'),
  'list.complainer': rule('list.complainer', CODE.trap, 'on the shared complainer list'),
  'list.optout': rule('list.optout', CODE.optedOut, 'on the shared opt-out list'),
  'list.do-not-email': rule('list.do-not-email', CODE.doNotEmail, 'on the shared do-not-email list'),
  'list.bouncer': rule('list.bouncer', CODE.bouncer, 'on the shared bouncer list'),
  'domain.disposable': rule('domain.disposable', CODE.trap, 'a disposable-address domain (by name or name servers)'),
  'address.dangerous-mailbox': rule(
    'address.dangerous-mailbox',
    CODE.dangerousMailbox,
    'a mailbox that must never be mailed (abuse@, postmaster@ and the like)',
  ),
  'dns.resolver-not-trusted': rule('dns.resolver-not-trusted', CODE.timeout, 'our resolver is not trusted (prober health): no DNS verdict'),
  'dns.nxdomain': rule('dns.nxdomain', CODE.domainMissing, 'the domain does not exist (NXDOMAIN)'),
  'dns.null-mx': rule('dns.null-mx', CODE.noMail, 'the domain publishes a null MX (RFC 7505): it takes no mail'),
  'dns.no-mail-route': rule('dns.no-mail-route', CODE.noMail, 'the domain has neither MX nor address records'),
  'dns.no-public-mx-address': rule('dns.no-public-mx-address', CODE.noMail, 'every MX host is absent or has only private addresses'),
  'dns.unanswered': rule('dns.unanswered', CODE.timeout, 'DNS did not answer in time (SERVFAIL, timeout)'),
  'depth.domain': rule('depth.domain', CODE.domainOk, 'the domain takes mail; depth `domain` stops here'),
  'provider.accepts-all': rule(
    'provider.accepts-all',
    CODE.domainOk,
    'the provider accepts every recipient at RCPT time and bounces later: not probed',
  ),
  'memory.remembered': rule(
    'memory.remembered',
    [CODE.deliverable, CODE.noMailbox, CODE.mailboxFull],
    'a definitive verdict remembered (verdict memory); not probed again',
  ),
  'catch-all.known': rule('catch-all.known', CODE.catchAll, 'the domain is known to accept every address (cached catch-all fact)'),
  'health.egress-blocked': rule(
    'health.egress-blocked',
    [CODE.domainOk, CODE.catchAll],
    'our port 25 is blocked (prober health): what DNS proved, no probe',
  ),
  'mailbox.accepted': rule(
    'mailbox.accepted',
    CODE.deliverable,
    'the MX accepted the address and refused a random one: the mailbox exists',
  ),
  'mailbox.catch-all': rule('mailbox.catch-all', CODE.catchAll, 'the MX accepted the address and a random one: a catch-all domain'),
  'mailbox.accepted-unproven': rule(
    'mailbox.accepted-unproven',
    CODE.domainOk,
    'the MX accepted the address, but whether it accepts everyone stayed unknown (or a gateway answered)',
  ),
  'mailbox.unknown-user': rule('mailbox.unknown-user', CODE.noMailbox, 'the MX refused the address as unknown: the mailbox does not exist'),
  'mailbox.full': rule('mailbox.full', CODE.mailboxFull, 'the MX refused the address as over its quota'),
  'mailbox.temporary': rule('mailbox.temporary', CODE.domainOk, 'a temporary reply (4xx, greylisting) even after the one retry'),
  'mailbox.refusal-of-us': rule(
    'mailbox.refusal-of-us',
    CODE.domainOk,
    'the MX refused us (our sender, name, address or reputation), not the recipient',
  ),
  'mailbox.policy': rule('mailbox.policy', CODE.domainOk, 'a refusal that is no proof about the recipient (policy, other 5xx)'),
  'mailbox.throttled': rule('mailbox.throttled', CODE.domainOk, "the provider's connection budget was spent, or it asked us to slow down"),
  'mailbox.address-not-sendable': rule(
    'mailbox.address-not-sendable',
    CODE.addressRefused,
    'a UTF-8 address and the MX does not offer SMTPUTF8: not sent',
  ),
  'mailbox.no-reply': rule('mailbox.no-reply', CODE.domainOk, 'the session ended without a reply for the address'),
  'mailbox.every-mx-refuses': rule('mailbox.every-mx-refuses', CODE.refusesMail, 'every MX host refused the connection'),
  'mailbox.refusals-not-trusted': rule(
    'mailbox.refusals-not-trusted',
    CODE.domainOk,
    'every MX refused us, but our own connections are in doubt (prober health)',
  ),
  'mailbox.timeout': rule('mailbox.timeout', CODE.timeout, 'no SMTP answer before the deadline'),
  'mailbox.egress-failed': rule('mailbox.egress-failed', CODE.domainOk, 'our egress (the proxy) failed: nothing learnt of the host'),
  'mailbox.session-failed': rule('mailbox.session-failed', CODE.domainOk, 'the MX greeted us with a refusal or the session broke off'),
  'system.error': rule('system.error', CODE.systemError, 'our own failure'),
} as const satisfies Record<string, RuleEntry>;

export type RuleId = keyof typeof RULES;

/** The rule's section in docs/verification.md, relative to the repository. */
export function ruleDoc(id: RuleId): string {
  return `docs/verification.md#rule-${id.replaceAll('.', '-')}`;
}

/** The syntax stage's rule id for a fault (`syntax.general` when the fault names none). */
export function syntaxRule(name: SyntaxRule | undefined): RuleId {
  return name === undefined ? 'syntax.general' : `syntax.${name}`;
}

/** A stage's decision: the rule that decided and the code it gives (one of the rule's `codes`). */
export interface Decision {
  rule: RuleId;
  code: StatusCode;
  /** Set when the verdict stops short because of our own network (prober health), not the address. */
  limit?: VerdictLimit;
}

/** A rule's decision; the code may be left out where the rule gives only one. */
export function decided(rule: RuleId, code: StatusCode = RULES[rule].codes[0]!, limit?: VerdictLimit): Decision {
  return limit ? { rule, code, limit } : { rule, code };
}
