/**
 * The mailbox stage's decision, pure: what the RCPT replies for the address and for a random
 * local part at the same domain prove (decisions §4). Only `no-mailbox` and `mailbox-full` are
 * proof against an address; refusals of our probe and temporary failures give 20.
 */
import type { RcptEvidence } from './providers/profile.js';
import type { ReplyClass } from './smtp/reply-class.js';
import { CODE, type StatusCode } from './codes.js';

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
export function decideProbeFailure(kind: 'refused' | 'timeout' | 'banner-reject' | 'protocol-error' | 'egress-failed' | 'throttled'): StatusCode {
  switch (kind) {
    case 'refused':
      return CODE.refusesMail;
    case 'timeout':
      return CODE.timeout;
    default:
      return CODE.domainOk;
  }
}
