/**
 * What a reply to RCPT TO says about the mailbox (decisions §4). Pure and total: every reply maps
 * to exactly one class, and only `no-mailbox` / `mailbox-full` are proof against an address.
 *
 * The enhanced status code (RFC 3463) decides first, because it is the machine-readable part and
 * texts vary by vendor and language. Two exceptions, where the code carries no information:
 * - an undefined detail (`X.0.0`, and `5.5.0` "other protocol status", which Outlook.com sends
 *   for unknown users) falls through to the reply code and text;
 * - an enhanced class that disagrees with the reply code (`550 2.1.5`) is ignored: RFC 3463 §2
 *   requires them to agree, and the basic code is what the protocol acts on.
 * And two guards: a 5.1.x whose text names a block list or spam is treated as policy, since an
 * address is called invalid only on proof and such a reply contradicts itself; and a refusal
 * of our sender or our connection, on whichever line of a multi-line reply it is said, is never
 * a verdict about the recipient (whatever the other lines and codes say). Exim's sender
 * verification (`require verify = sender`) refuses our MAIL FROM only at RCPT time, with
 * `550-Verification failed for <verify@…>`, `550-Unrouteable address` (Debian: `550-Unknown
 * user`), `550 Sender verify failed`: its middle line is about our sender, not the recipient.
 *
 * A provider profile's reply mapping (providers/profiles.ts), when given, is read before the
 * standard rules: its "we block you" and "slow down" replies first (never proof against an
 * address, whatever their code says), then its unknown-user replies (`550 5.4.1 Recipient address
 * rejected: Access denied` at Microsoft 365 is proof; the same code elsewhere is not).
 */
import type { ReplyMapping, ReplyPattern } from '../providers/profile.js';
import { leadingEnhancedCode, type SmtpReply } from './smtp-reply.js';

export type ReplyClass =
  | 'accepted'
  /** Permanent: the mailbox does not exist (5.1.x). Proof of an invalid address. */
  | 'no-mailbox'
  /** The mailbox exists and is over quota (4.2.2 / 5.2.2, 452 / 552). Proof of undeliverable. */
  | 'mailbox-full'
  /** Our probe was refused (5.7.x, block lists, reputation). Says nothing about the mailbox. */
  | 'policy'
  /** Any other permanent refusal: not proof about the mailbox either. */
  | 'rejected-other'
  /** Try again later (4xx), greylisting included. */
  | 'temporary';

export interface ReplyClassification {
  class: ReplyClass;
  /** A temporary refusal that names greylisting: worth one retry within the time budget. */
  greylisted: boolean;
  /**
   * What a provider's own mapping recognised: `blocked`, it refuses us (the prober), not the
   * recipient; `throttled`, it asks us to slow down (no immediate retry). Never proof either way.
   */
  signal?: 'blocked' | 'throttled';
}

type Reply = Pick<SmtpReply, 'code' | 'text'> & { enhanced?: string };

const GREYLIST = /gr[ae]y ?list|gr[ae]ylisted/i;
const POLICY =
  /spam|block(ed|list)?|black ?list|deny ?list|policy|reputation|access denied|not authori[sz]ed|banned|prohibited|relay(ing)? (access )?denied|spamhaus|barracuda|\brbl\b|\bdnsbl\b/i;
const FULL =
  /mailbox (is )?full|over ?quota|quota exceeded|exceeded (its |the )?(storage|quota)|insufficient storage|out of storage|mailbox size limit/i;
const STRONG_BLOCK = /spamhaus|block ?list|black ?list|\bblocked\b|\brbl\b|dnsbl|reputation|\bspam\b/i;
const NO_MAILBOX =
  /user unknown|unknown user|no such (user|mailbox|recipient|address)|does not exist|doesn'?t exist|doesn'?t have an? .{1,40}account|mailbox unavailable|mailbox not found|recipient rejected|recipient address rejected|invalid (recipient|mailbox|address)|user not found|address (not found|unknown|rejected)|unrouteable address|not a valid (mailbox|recipient)|no mailbox|recipient unknown|unknown recipient|recipient not found|previous \(cached\) callout verification failure|cannot deliver mail for </i;
const TOO_MANY = /too many recipients/i;
/** Our MAIL FROM or our connection refused (test/conformance: each MTA's wording). */
const ABOUT_OUR_ENVELOPE =
  /sender verif(y|ication) failed|verification failed for <|could not complete sender verify|sender address rejected|sender (address )?(unknown|refused|denied|not allowed|rejected)|helo command rejected|client host rejected|your from address|helo host (has no|does not|name invalid)/i;

export function classifyRcptReply(reply: Reply, mapping?: ReplyMapping): ReplyClassification {
  const greylisted = reply.code >= 400 && reply.code < 500 && GREYLIST.test(reply.text);
  const signal = mapping && reply.code >= 400 ? providerSignal(reply, mapping) : undefined;
  if (signal) return { class: refusalClass(reply), greylisted: false, signal };
  if (reply.code >= 400 && ABOUT_OUR_ENVELOPE.test(reply.text)) return { class: refusalClass(reply), greylisted: false };
  const enhanced = usableEnhanced(reply);
  let decided = enhanced ? byEnhanced(enhanced) : byCodeAndText(reply);
  if (mapping && reply.code >= 500 && reply.code < 600 && mapping.unknownUser.some((p) => replyMatches(p, reply))) decided = 'no-mailbox';
  if (decided === 'no-mailbox' && STRONG_BLOCK.test(reply.text)) decided = 'policy';
  return { class: decided, greylisted };
}

/**
 * A refusal of the envelope itself (EHLO/HELO or MAIL FROM, or a refusing banner): no recipient
 * was ever judged, so it can only mean our probe was refused (permanent) or should come back later.
 */
export function classifyEnvelopeReply(reply: Reply, mapping?: ReplyMapping): ReplyClassification {
  const temporary = reply.code >= 400 && reply.code < 500;
  const signal = mapping && reply.code >= 400 ? providerSignal(reply, mapping) : undefined;
  if (signal) return { class: refusalClass(reply), greylisted: false, signal };
  return { class: temporary ? 'temporary' : 'policy', greylisted: temporary && GREYLIST.test(reply.text) };
}

/** Whether a reply has the shape a profile's pattern describes (every field given must agree). */
export function replyMatches(pattern: ReplyPattern, reply: Reply): boolean {
  if (pattern.code !== undefined && pattern.code !== reply.code) return false;
  if (pattern.enhanced !== undefined) {
    const enhanced = reply.enhanced ?? leadingEnhancedCode(reply.text);
    if (enhanced === undefined) return false;
    if (pattern.enhanced.endsWith('.') ? !enhanced.startsWith(pattern.enhanced) : enhanced !== pattern.enhanced) return false;
  }
  return pattern.text === undefined || pattern.text.test(reply.text);
}

function providerSignal(reply: Reply, mapping: ReplyMapping): ReplyClassification['signal'] {
  if (mapping.blocked.some((p) => replyMatches(p, reply))) return 'blocked';
  if (mapping.slowDown.some((p) => replyMatches(p, reply))) return 'throttled';
  return undefined;
}

const refusalClass = (reply: Reply): ReplyClass => (reply.code < 500 ? 'temporary' : 'policy');

/** 452 4.5.3 "too many recipients": the transaction is full, not the mailbox (RFC 5321 §4.5.3.1.10). */
export function isTooManyRecipients(reply: Reply): boolean {
  const enhanced = reply.enhanced ?? leadingEnhancedCode(reply.text);
  return (reply.code === 452 || reply.code === 451) && (enhanced === '4.5.3' || TOO_MANY.test(reply.text));
}

function usableEnhanced(reply: Reply): [number, number, number] | undefined {
  const code = reply.enhanced ?? leadingEnhancedCode(reply.text);
  if (!code) return undefined;
  const parts = code.split('.').map(Number) as [number, number, number];
  if (parts[0] !== Math.floor(reply.code / 100)) return undefined;
  if (parts[2] === 0 && (parts[1] === 0 || (parts[0] === 5 && parts[1] === 5))) return undefined;
  return parts;
}

function byEnhanced([klass, subject, detail]: [number, number, number]): ReplyClass {
  if (klass === 2) return 'accepted';
  if (subject === 2 && detail === 2) return 'mailbox-full';
  if (klass === 4) return 'temporary';
  // 5.1.7 / 5.1.8 are about our sender address, not the recipient: a refusal of the probe.
  if (subject === 1) return detail === 7 || detail === 8 ? 'policy' : 'no-mailbox';
  if (subject === 7) return 'policy';
  return 'rejected-other';
}

function byCodeAndText(reply: Reply): ReplyClass {
  const { code, text } = reply;
  if (code >= 200 && code < 300) return 'accepted';
  if (code >= 400 && code < 500) {
    // Only 452 is a full mailbox: decisions §4 keeps every other 4xx out of the invalid verdicts.
    return code === 452 && !TOO_MANY.test(text) ? 'mailbox-full' : 'temporary';
  }
  if (code >= 500 && code < 600) {
    // Policy words win over mailbox words: "recipient rejected: blocked" is no proof.
    if (POLICY.test(text)) return 'policy';
    if (code === 552 || FULL.test(text)) return 'mailbox-full';
    if (NO_MAILBOX.test(text)) return 'no-mailbox';
    return 'rejected-other';
  }
  // 1xx/3xx make no sense after RCPT; never proof of anything.
  return 'rejected-other';
}
