/**
 * The mailbox stage's decisions, pure: what the RCPT replies for the address and for a random
 * local part at the same domain prove (decisions §4). Only `no-mailbox` and `mailbox-full` are
 * proof against an address; refusals of our probe and temporary failures give 20. Also what
 * stands in for a probe: a remembered verdict, a cached catch-all fact while our port 25 is
 * blocked, and whether every MX refusing us may be believed (prober health). The probe's own
 * outcomes (a session that failed, a provider that refused us) are named in mailbox-stage.ts.
 */
import type { RcptEvidence } from './providers/profile.js';
import type { ReplyClass } from './smtp/reply-class.js';
import { CODE, type StatusCode } from './codes.js';
import { decided, type Decision, type RuleId } from './rules.js';
import type { RememberedCode } from './verdict-store.js';

export type CatchAllFact = 'yes' | 'no' | 'unknown';

export interface MailboxEvidence {
  address: ReplyClass;
  /** The reply for a random local part, when one was probed in the same session. */
  random?: ReplyClass;
}

export interface MailboxDecision {
  code: StatusCode;
  /** What the random probe taught about the domain, to cache. */
  catchAll?: CatchAllFact;
}

/**
 * `rcpt` is what the provider's 250 can prove (providers/profile.ts): behind a gateway
 * (`refusals-only`) a refusal of the address is still proof, an acceptance never is, and the
 * domain's catch-all fact is neither learnt nor used.
 */
export function decideMailbox(evidence: MailboxEvidence, knownCatchAll: CatchAllFact, rcpt: RcptEvidence = 'mailbox'): MailboxDecision {
  if (rcpt !== 'mailbox') {
    if (evidence.address === 'no-mailbox') return { code: CODE.noMailbox };
    if (evidence.address === 'mailbox-full') return { code: CODE.mailboxFull };
    return { code: CODE.domainOk };
  }
  const catchAll = evidence.random === undefined ? undefined : learnCatchAll(evidence.random);
  const fact = catchAll ?? knownCatchAll;
  switch (evidence.address) {
    case 'no-mailbox':
      return withFact(CODE.noMailbox, catchAll);
    case 'mailbox-full':
      return withFact(CODE.mailboxFull, catchAll);
    case 'accepted':
      if (fact === 'yes') return withFact(CODE.catchAll, catchAll);
      if (fact === 'no') return withFact(CODE.deliverable, catchAll);
      return withFact(CODE.domainOk, catchAll);
    default:
      return withFact(CODE.domainOk, catchAll);
  }
}

function learnCatchAll(random: ReplyClass): CatchAllFact | undefined {
  if (random === 'accepted') return 'yes';
  if (random === 'no-mailbox') return 'no';
  return undefined;
}

function withFact(code: StatusCode, catchAll: CatchAllFact | undefined): MailboxDecision {
  return catchAll === undefined ? { code } : { code, catchAll };
}

/**
 * Session-level failures: refused on every MX is proof the domain takes no mail; a timeout is
 * unknown; our own egress failing (the proxy) or our own connection budget for a provider spent
 * (throttled) proves nothing about the domain.
 */
export function decideProbeFailure(
  kind: 'refused' | 'timeout' | 'banner-reject' | 'protocol-error' | 'egress-failed' | 'throttled',
): StatusCode {
  switch (kind) {
    case 'refused':
      return CODE.refusesMail;
    case 'timeout':
      return CODE.timeout;
    default:
      return CODE.domainOk;
  }
}

/** The rule behind a decision on the address's reply (`decideMailbox`), by its code and the reply's class. */
export function repliedRule(code: StatusCode, replied: ReplyClass): RuleId {
  switch (code) {
    case CODE.noMailbox:
      return 'mailbox.unknown-user';
    case CODE.mailboxFull:
      return 'mailbox.full';
    case CODE.deliverable:
      return 'mailbox.accepted';
    case CODE.catchAll:
      return 'mailbox.catch-all';
    default:
      return replied === 'accepted' ? 'mailbox.accepted-unproven' : replied === 'temporary' ? 'mailbox.temporary' : 'mailbox.policy';
  }
}

/** A definitive verdict remembered (verdict-memory.ts): not probed again. */
export function decideRemembered(code: RememberedCode): Decision {
  return decided('memory.remembered', code);
}

/** The rule a remembered (or a concurrent probe's) mailbox code came from, for a verdict's evidence. */
export function rememberedRule(code: StatusCode): RuleId {
  switch (code) {
    case CODE.deliverable:
      return 'mailbox.accepted';
    case CODE.noMailbox:
      return 'mailbox.unknown-user';
    case CODE.mailboxFull:
      return 'mailbox.full';
    case CODE.catchAll:
      return 'mailbox.catch-all';
    case CODE.timeout:
      return 'mailbox.timeout';
    default:
      return 'mailbox.accepted-unproven';
  }
}

/** A concurrent probe of the same address answered (the memory's single flight): its code, by its rule. */
export function decideShared(outcome: { code: StatusCode; limit?: Decision['limit'] }): Decision {
  return decided(rememberedRule(outcome.code), outcome.code, outcome.limit);
}

/**
 * Port 25 is closed here: the answer is what DNS proved, at once, not after a time-out per address;
 * a cached catch-all fact counts only where it means something (not behind a gateway).
 */
export function decideEgressBlocked(catchAll: CatchAllFact | undefined, rcpt: RcptEvidence): Decision {
  return rcpt === 'mailbox' && catchAll === 'yes' ? EGRESS_BLOCKED_CATCH_ALL : EGRESS_BLOCKED;
}

/** Every MX refusing us is the domain's fact only while connections elsewhere go through. */
export function restsOnConnectionRefusals(decision: { code: StatusCode }): boolean {
  return decision.code === CODE.refusesMail;
}

/** A mailbox decision, once the pipeline has asked (when it rests on refusals) whether our connections are trusted. */
export function decideRefusalsTrusted<D extends { code: StatusCode }>(decision: D, connectionsTrusted: boolean): D | Decision {
  return restsOnConnectionRefusals(decision) && !connectionsTrusted ? REFUSALS_NOT_TRUSTED : decision;
}

const EGRESS_BLOCKED = decided('health.egress-blocked', CODE.domainOk, 'smtp-egress');
const EGRESS_BLOCKED_CATCH_ALL = decided('health.egress-blocked', CODE.catchAll, 'smtp-egress');
const REFUSALS_NOT_TRUSTED = decided('mailbox.refusals-not-trusted', CODE.domainOk, 'smtp-egress');
