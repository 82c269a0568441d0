/**
 * The mailbox stage's I/O: probe the reachable MX hosts in preference order with the address and,
 * when the domain's catch-all fact is unknown, a random local part in the same session; retry
 * once after greylisting when the time budget allows. Decisions are in decide-mailbox.ts.
 *
 * A decisive reply is answered as soon as it arrives: an unknown user (or a full mailbox) proves
 * the address undeliverable whatever the domain's catch-all state, so the random local part's
 * reply is not waited for (a tarpit may hold it past the deadline), and a decisive reply already
 * received when the deadline passes is the answer, not `timeout`.
 *
 * The provider's profile (providers/) says what its replies mean: they are judged again with its
 * mapping, a "slow down" is not retried at once (the verdict is limited `throttled`: a list asks
 * again later), and a "we block you" is a refusal of us.
 */
import { randomBytes } from 'node:crypto';
import type { EvidenceTrace } from './evidence.js';
import type { FactCache } from './fact-cache.js';
import type { Decision, RuleId } from './rules.js';
import { CODE, type StatusCode } from './codes.js';
import { decideEgressBlocked, decideMailbox, decideProbeFailure, repliedRule, type CatchAllFact } from './decide-mailbox.js';
import type { VerdictLimit } from './health/health-state.js';
import { refusalIsAboutUs } from './health/probe-evidence.js';
import type { ProviderProfile } from './providers/profile.js';
import { DEFAULT_PROFILE } from './providers/profiles.js';
import type { ProbeOptions, ProbeOutcome, RecipientReply, SmtpProber } from './smtp/prober.js';
import { classifyEnvelopeReply, classifyRcptReply, type ReplyClassification } from './smtp/reply-class.js';

export const CATCH_ALL_TTL_MS = 24 * 3600_000;

export interface MailboxStageDeps {
  prober: SmtpProber;
  catchAll: FactCache<CatchAllFact>;
  /** Wait before the one retry after greylisting. */
  greylistRetryMs: number;
  randomLocalPart?: () => string;
}

export interface MailboxTarget {
  /** The address as we send it: local part @ A-label domain. */
  recipient: string;
  asciiDomain: string;
  hosts: { host: string; addresses: string[] }[];
  /** The provider's profile (default: the standard rules only). */
  profile?: ProviderProfile;
  /** The API key the verification runs for: a shared session's rounds take keys in turn (the per-key share). */
  key?: number;
}

export interface MailboxResult {
  code: StatusCode;
  /** Set when the answer stops short because the provider refused us, not the recipient. */
  limit?: VerdictLimit;
  /** The rule that decided (rules.ts), for a verdict's evidence. */
  rule: RuleId;
}

export async function runMailboxStage(
  deps: MailboxStageDeps,
  target: MailboxTarget,
  deadline: number,
  trace?: EvidenceTrace,
): Promise<MailboxResult> {
  const profile = target.profile ?? DEFAULT_PROFILE;
  // Behind a gateway a catch-all fact says nothing about the mailboxes: neither used nor probed.
  const catchAllMeansSomething = profile.rcpt === 'mailbox';
  const known = catchAllMeansSomething ? ((await deps.catchAll.get(target.asciiDomain)) ?? 'unknown') : 'unknown';
  const catchAllStage = catchAllMeansSomething ? { stage: 'catch-all' as const, known } : undefined;
  if (catchAllStage) trace?.stage(catchAllStage);
  if (known === 'yes') return { code: CODE.catchAll, rule: 'catch-all.known' };
  const random =
    known === 'unknown' && catchAllMeansSomething ? `${(deps.randomLocalPart ?? randomLocalPart)()}@${target.asciiDomain}` : undefined;
  const recipients = random ? [target.recipient, random] : [target.recipient];
  const judge = (reply: RecipientReply | undefined) => (reply ? judged(reply, profile) : undefined);
  const decisive = (recipient: string, reply: RecipientReply) => recipient === target.recipient && isDecisive(judged(reply, profile));

  const options: ProbeOptions = {
    ...(random ? { catchAllProbe: random } : {}),
    decisive,
    ...(target.key !== undefined ? { key: target.key } : {}),
    ...(trace ? { record: trace.record } : {}),
  };
  let outcome = keepDecisive(await probeHosts(deps.prober, target.hosts, recipients, deadline, options), target.recipient, profile);
  if (outcome.kind === 'replies' && worthRetry(judge(outcome.replies.get(target.recipient)))) {
    // One retry, and only when the wait and a second session still fit in the budget.
    if (Date.now() + deps.greylistRetryMs + 1_000 < deadline) {
      trace?.mailbox('temporary reply: asked again once');
      trace?.retrying();
      await new Promise((resolve) => setTimeout(resolve, deps.greylistRetryMs));
      outcome = keepDecisive(await probeHosts(deps.prober, target.hosts, recipients, deadline, options), target.recipient, profile);
    }
  }
  if (outcome.kind !== 'replies') {
    trace?.mailbox(outcome.kind);
    const code = decideProbeFailure(outcome.kind);
    if (outcome.kind === 'egress-failed') return { code, limit: 'smtp-egress', rule: 'mailbox.egress-failed' };
    if (outcome.kind === 'throttled') return { code, limit: 'throttled', rule: 'mailbox.throttled' };
    const banner = outcome.kind === 'banner-reject' && outcome.reply ? classifyEnvelopeReply(outcome.reply, profile.replies) : undefined;
    if (banner?.signal === 'throttled') return { code, limit: 'throttled', rule: 'mailbox.throttled' };
    const aboutUs = outcome.kind === 'banner-reject' && (banner?.signal === 'blocked' || refusalIsAboutUs(outcome.detail));
    if (aboutUs) return { code, limit: 'reputation', rule: 'mailbox.refusal-of-us' };
    return {
      code,
      rule:
        outcome.kind === 'refused' ? 'mailbox.every-mx-refuses' : outcome.kind === 'timeout' ? 'mailbox.timeout' : 'mailbox.session-failed',
    };
  }

  const reply = outcome.replies.get(target.recipient);
  trace?.mailbox(
    reply
      ? `${reply.stage === 'rcpt' ? 'RCPT' : reply.stage === 'local' ? 'not sent' : reply.stage.toUpperCase()} ${reply.code}: ${judged(reply, profile).class}`
      : 'no reply',
  );
  if (!reply) return { code: CODE.domainOk, rule: 'mailbox.no-reply' };
  // We did not send a non-ASCII address to a server without SMTPUTF8: it cannot accept it.
  if (reply.stage === 'local' && reply.enhanced === '5.6.7') return { code: CODE.addressRefused, rule: 'mailbox.address-not-sendable' };
  const address = judged(reply, profile);
  const randomReply = random ? outcome.replies.get(random) : undefined;
  const evidence = {
    address: address.class,
    ...(random ? { random: randomReply ? judged(randomReply, profile).class : 'temporary' } : {}),
  };
  const decision = decideMailbox(evidence, known, profile.rcpt);
  if (decision.catchAll) await deps.catchAll.set(target.asciiDomain, decision.catchAll, CATCH_ALL_TTL_MS);
  if (catchAllStage && random) Object.assign(catchAllStage, { learnt: decision.catchAll ?? 'unknown' });
  if (address.signal === 'throttled') return { code: decision.code, limit: 'throttled', rule: 'mailbox.throttled' };
  const aboutUs = address.signal === 'blocked' || (address.class === 'policy' && refusalIsAboutUs(reply.text));
  if (aboutUs) return { code: decision.code, limit: 'reputation', rule: 'mailbox.refusal-of-us' };
  return { code: decision.code, rule: repliedRule(decision.code, address.class) };
}

/** A reply judged again with the provider's mapping (the session judged it by the standard rules). */
function judged(reply: RecipientReply, profile: ProviderProfile): ReplyClassification {
  if (profile.replies === DEFAULT_PROFILE.replies || reply.stage === 'local') return reply;
  return reply.stage === 'rcpt' ? classifyRcptReply(reply, profile.replies) : classifyEnvelopeReply(reply, profile.replies);
}

/** Our port 25 blocked: what a cached catch-all fact alone says of the address (45 or 20), read only where it means something. */
export async function withoutProbe(catchAll: FactCache<CatchAllFact>, asciiDomain: string, profile: ProviderProfile): Promise<Decision> {
  const fact = profile.rcpt === 'mailbox' ? await catchAll.get(asciiDomain) : undefined;
  return decideEgressBlocked(fact, profile.rcpt);
}

/** Hosts in preference order: the next one when a host refuses or fails; a timeout, a failed egress (proxy) or a spent connection budget ends the search. */
async function probeHosts(
  prober: SmtpProber,
  hosts: MailboxTarget['hosts'],
  recipients: string[],
  deadline: number,
  options: ProbeOptions,
): Promise<ProbeOutcome> {
  let last: ProbeOutcome | undefined;
  let allRefused = true;
  for (const host of hosts) {
    const outcome = await prober.probe(host, recipients, deadline, options);
    if (outcome.kind === 'replies' || outcome.kind === 'timeout' || outcome.kind === 'egress-failed' || outcome.kind === 'throttled')
      return outcome;
    allRefused &&= outcome.kind === 'refused';
    last = outcome;
  }
  if (!last) return { kind: 'refused', detail: 'no hosts' };
  if (allRefused || last.kind === 'replies') return last;
  return { kind: 'protocol-error', detail: last.detail };
}

/** Proof about the address that no other reply of the session can change (decide-mailbox.ts). */
function isDecisive(reply: ReplyClassification): boolean {
  return reply.class === 'no-mailbox' || reply.class === 'mailbox-full';
}

/** A session cut short (the deadline, a dropped connection) after the address's decisive reply: that reply is the outcome. */
function keepDecisive(outcome: ProbeOutcome, recipient: string, profile: ProviderProfile): ProbeOutcome {
  if (outcome.kind === 'replies' || outcome.kind === 'refused' || !outcome.partial) return outcome;
  const reply = outcome.partial.get(recipient);
  if (!reply || reply.stage !== 'rcpt' || !isDecisive(judged(reply, profile))) return outcome;
  return { kind: 'replies', replies: new Map([[recipient, reply]]), tls: false, smtputf8: false, address: '' };
}

/** A temporary answer is asked again once; not when the provider asked us to slow down or blocks us. */
function worthRetry(reply: ReplyClassification | undefined): boolean {
  return reply !== undefined && reply.class === 'temporary' && reply.signal === undefined;
}

/** Letters and digits that look like a person's mailbox, not a probe marker. */
function randomLocalPart(): string {
  const alphabet = 'abcdefghijkmnopqrstuvwxyz23456789';
  return [...randomBytes(14)].map((b) => alphabet[b % alphabet.length]).join('');
}
