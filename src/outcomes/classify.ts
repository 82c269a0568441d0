/**
 * What an outcome may change (issue 32, "honest classification"). A complaint adds the address
 * to the key's complainers (525) and a delivery removes what outcomes put on its lists; a bounce
 * adds it to the bouncers (520) only when it proves the mailbox: the remote server's reply says
 * the mailbox does not exist (5.1.x, judged by the same rules as the prober's own RCPT replies,
 * smtp/reply-class.ts) or is disabled (5.2.1). Everything else (soft bounces, policy and
 * reputation blocks, spam content, a full mailbox, hard bounces whose text proves nothing) only
 * counts per domain, as the sender's own deliverability signal: one sender's reputation problem
 * must never make an address invalid.
 */
import { classifyRcptReply } from '../verification/smtp/reply-class.js';
import type { OutcomeEffect, OutcomeEvent } from './outcome-event.js';

const DISABLED =
  /mailbox (is |has been )?(disabled|deactivated|suspended|inactive)|account (is |has been )?(disabled|deactivated|suspended|inactive)|(disabled|inactive|deactivated|suspended) (mailbox|account|user|recipient)/i;

/** 5.2.1 is also sent for "receiving mail too fast": a mailbox that exists. */
const NOT_NOW = /\brate\b|too (many|fast)|try (again )?later|temporar/i;

export function classifyOutcome(event: OutcomeEvent): OutcomeEffect {
  switch (event.kind) {
    case 'complaint':
      return 'add-complainer';
    case 'delivery':
      return 'remove-outcome-entries';
    case 'bounce':
      return provesMailbox(event) ? 'add-bouncer' : 'count-only';
    default:
      return 'count-only';
  }
}

/** Whether a permanent bounce's reply proves that the mailbox does not exist or is disabled. */
export function provesMailbox(event: Pick<OutcomeEvent, 'enhancedStatus' | 'smtpCode' | 'diagnostic'>): boolean {
  const code = replyCode(event);
  if (code < 500 || code >= 600) return false;
  const reply = { code, text: event.diagnostic ?? '', ...(event.enhancedStatus ? { enhanced: event.enhancedStatus } : {}) };
  const judged = classifyRcptReply(reply);
  if (judged.class === 'no-mailbox') return true;
  // The prober never sees a disabled mailbox as proof (it only asks RCPT); a bounce after DATA
  // does, but only when nothing in the reply speaks of policy (the prober's own test of the text).
  if (judged.class !== 'rejected-other') return false;
  const disabled = (event.enhancedStatus === '5.2.1' || DISABLED.test(reply.text)) && !NOT_NOW.test(reply.text);
  return disabled && classifyRcptReply({ code, text: reply.text }).class !== 'policy';
}

/**
 * The reply code the bounce carries; when the ESP gave only an enhanced status (SES, DSN Status
 * fields), its class stands for it (RFC 3463 §2: they agree), as 550 or 450; with neither, the
 * ESP's own word (permanent) does, and only the text can then prove anything.
 */
function replyCode(event: Pick<OutcomeEvent, 'enhancedStatus' | 'smtpCode'>): number {
  if (event.smtpCode !== undefined) return event.smtpCode;
  if (event.enhancedStatus?.startsWith('4.')) return 450;
  if (event.enhancedStatus?.startsWith('2.')) return 250;
  return 550;
}
