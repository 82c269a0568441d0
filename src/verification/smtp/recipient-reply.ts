/**
 * A recipient's reply in a probe's session (smtp-session.ts): what the server answered, judged by
 * the reply classifier, and at which stage; or our own refusal to send an address that SMTP
 * cannot carry (stage `local`).
 */
import { classifyEnvelopeReply, classifyRcptReply, type ReplyClass } from './reply-class.js';
import type { SmtpReply } from './smtp-reply.js';

export interface RecipientReply {
  class: ReplyClass;
  greylisted: boolean;
  code: number;
  enhanced?: string;
  text: string;
  /**
   * What the reply answered: `rcpt` is a verdict on this recipient; `helo`/`mail` refused the
   * whole envelope (so: our probe); `local` means we did not send it (see text).
   */
  stage: 'rcpt' | 'mail' | 'helo' | 'local';
}

export const nonAscii = (text: string): boolean => /[^\p{ASCII}]/u.test(text);
// Anything that could end or split a command line, or break out of the <…> path.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSENDABLE = /[\u0000-\u001f\u007f<>]/u;

export function localRefusal(recipient: string, smtputf8: boolean): RecipientReply | undefined {
  if (UNSENDABLE.test(recipient)) {
    return {
      class: 'rejected-other',
      greylisted: false,
      code: 501,
      enhanced: '5.1.3',
      text: 'not sent: the address contains characters that cannot be sent in SMTP',
      stage: 'local',
    };
  }
  if (nonAscii(recipient) && !smtputf8) {
    // What an RFC 6531 server answers for this; we do not send what it could only refuse.
    return {
      class: 'rejected-other',
      greylisted: false,
      code: 553,
      enhanced: '5.6.7',
      text: 'not sent: non-ASCII address and the server does not offer SMTPUTF8',
      stage: 'local',
    };
  }
  return undefined;
}

export function record(reply: SmtpReply, stage: RecipientReply['stage']): RecipientReply {
  const judged = stage === 'rcpt' ? classifyRcptReply(reply) : classifyEnvelopeReply(reply);
  return { ...judged, code: reply.code, ...(reply.enhanced ? { enhanced: reply.enhanced } : {}), text: reply.text, stage };
}

export function everyone(
  recipients: string[],
  replies: Map<string, RecipientReply>,
  reply: SmtpReply,
  stage: RecipientReply['stage'],
): void {
  for (const recipient of recipients) if (!replies.has(recipient)) replies.set(recipient, record(reply, stage));
}
