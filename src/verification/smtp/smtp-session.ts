/**
 * One SMTP conversation with one MX address: banner, EHLO (HELO fallback), STARTTLS when offered,
 * then MAIL FROM and RCPT TO for every recipient, and QUIT. DATA is never sent.
 *
 * Recipients share a transaction: one MAIL FROM, then all RCPTs (pipelined when the server offers
 * PIPELINING), so a session costs one round trip per batch instead of three per address.
 * RSET + MAIL FROM start a new transaction only between batches — when we reach our own batch
 * size, or the server answers 452 4.5.3 "too many recipients" — because RFC 5321 only promises
 * 100 recipients per transaction and some servers allow fewer. The replies of a shared
 * transaction are independent per recipient (RFC 5321 §3.3), so sharing costs no accuracy.
 */
import { isTooManyRecipients } from './reply-class.js';
import { everyone, localRefusal, nonAscii, record, type RecipientReply } from './recipient-reply.js';
import type { SocksProxy } from '../../core/socks-proxy-url.js';
import { ehloKeywords, type ReplyLimits, type SmtpReply } from './smtp-reply.js';
import { SmtpTransport, TransportError } from './smtp-transport.js';
import { Transcript } from './transcript.js';

export type { RecipientReply } from './recipient-reply.js';

export interface SessionOptions {
  address: string;
  port: number;
  /** The MX host name, for SNI. */
  hostname?: string;
  helo: string;
  from: string;
  recipients: readonly string[];
  /** Absolute deadline, `Date.now()` clock. */
  deadline: number;
  connectTimeoutMs: number;
  /** Upgrade with STARTTLS when advertised. */
  startTls: boolean;
  /** Recipients per transaction (default 50, half of what RFC 5321 §4.5.3.1.8 guarantees). */
  batchSize?: number;
  limits?: ReplyLimits;
  /** The SOCKS5 proxy to connect through (egress.ts chooses it). */
  proxy?: SocksProxy;
  /** The local address a direct connection leaves from (egress.ts chooses it). */
  localAddress?: string;
}

/** `proxy-failed`: the SOCKS proxy failed us; nothing was learnt about the target. */
export type SessionFailure =
  'refused' | 'unreachable' | 'connect-timeout' | 'timeout' | 'banner-reject' | 'protocol-error' | 'tls-failed' | 'proxy-failed';

export type SessionResult =
  | { kind: 'replies'; replies: Map<string, RecipientReply>; tls: boolean; smtputf8: boolean }
  | {
      kind: SessionFailure;
      detail: string;
      /** The server's reply that ended the session, when there was one (banner rejects). */
      reply?: SmtpReply;
      /** Replies obtained before the failure. */
      partial?: Map<string, RecipientReply>;
      /** The server's banner had come (so the connection itself worked). */
      bannerSeen?: boolean;
    };

const DEFAULT_BATCH = 50;

export async function runSmtpSession(options: SessionOptions): Promise<SessionResult> {
  const opened = await openSmtpSession(options);
  if (opened.kind !== 'open') return opened;
  const { session } = opened;
  const replies = new Map<string, RecipientReply>();
  try {
    await session.ask(options.recipients, replies, options.batchSize);
  } catch (error) {
    session.close();
    return { ...sessionFailure(error, replies), bannerSeen: true };
  }
  const result: SessionResult = { kind: 'replies', replies, tls: session.tls, smtputf8: session.smtputf8 };
  await session.end();
  return result;
}

export type SessionFailed = Exclude<SessionResult, { kind: 'replies' }>;
export type OpenResult = { kind: 'open'; session: SmtpSession } | SessionFailed;

/**
 * Connects and gets as far as a transaction could start: banner, EHLO, STARTTLS when offered
 * and asked for. The session is then the caller's to `ask` (as often as it likes) and `end`.
 */
export async function openSmtpSession(options: Omit<SessionOptions, 'recipients' | 'batchSize'>): Promise<OpenResult> {
  let transport: SmtpTransport;
  const transcript = new Transcript();
  try {
    transport = await SmtpTransport.connect({ ...options, transcript });
  } catch (error) {
    return sessionFailure(error, new Map());
  }
  const progress = { bannerSeen: false };
  try {
    return await greeted(transport, options, progress, transcript);
  } catch (error) {
    transport.close();
    const failed = sessionFailure(error, new Map());
    return progress.bannerSeen ? { ...failed, bannerSeen: true } : failed;
  }
}

async function greeted(
  transport: SmtpTransport,
  options: Omit<SessionOptions, 'recipients' | 'batchSize'>,
  progress: { bannerSeen: boolean },
  transcript: Transcript,
): Promise<OpenResult> {
  const banner = await transport.read();
  progress.bannerSeen = true;
  if (banner.code !== 220) {
    transport.close();
    return { kind: 'banner-reject', detail: `banner ${banner.code} ${banner.text}`.trim(), reply: banner };
  }

  let hello = await greet(transport, options.helo);
  let extensions = hello.code === 250 ? ehloKeywords(hello) : new Set<string>();
  if (hello.code === 250 && options.startTls && extensions.has('STARTTLS')) {
    const ready = await transport.command('STARTTLS');
    if (ready.code === 220) {
      try {
        await transport.startTls(options.hostname);
      } catch (error) {
        if (error instanceof TransportError && error.kind === 'tls') return { kind: 'tls-failed', detail: error.message, bannerSeen: true };
        throw error;
      }
      // RFC 3207 §4.2: everything learnt before TLS is forgotten; ask again.
      hello = await greet(transport, options.helo);
      extensions = hello.code === 250 ? ehloKeywords(hello) : new Set<string>();
    }
  }
  return { kind: 'open', session: new SmtpSession(transport, options.from, hello, extensions, transcript) };
}

/**
 * An open SMTP session, between the greeting and QUIT. Each `ask` is one or more transactions
 * (RSET + MAIL FROM before each after the first), so a caller that asks per domain gets one
 * transaction per domain on a shared connection.
 */
export class SmtpSession {
  private transactions = 0;
  /** The reply that ended the conversation (a refused greeting or MAIL FROM, a 421). */
  private endedBy: SmtpReply | undefined;

  constructor(
    private readonly transport: SmtpTransport,
    private readonly from: string,
    private readonly hello: SmtpReply,
    private readonly extensions: Set<string>,
    /** What was said on the connection (a verdict's evidence reads its own part: `Transcript.view`). */
    readonly transcript?: Transcript,
  ) {
    if (hello.code !== 250) this.endedBy = hello;
  }

  get tls(): boolean {
    return this.transport.tls;
  }

  get smtputf8(): boolean {
    return this.extensions.has('SMTPUTF8');
  }

  /** False once the server refused the session or closed it: `ask` then answers with that refusal. */
  get usable(): boolean {
    return this.endedBy === undefined && this.transport.alive;
  }

  /** The deadline of the next `ask` (a session kept open for more work). */
  setDeadline(deadline: number): void {
    this.transport.setDeadline(deadline);
  }

  /**
   * A reply for every recipient into `replies` (a TransportError when the conversation fails:
   * what was answered by then stays in `replies`). Recipients refused for the whole envelope (by
   * the greeting, MAIL FROM or a closing 421) get that reply, marked with its stage.
   */
  async ask(recipients: readonly string[], replies: Map<string, RecipientReply>, batchSize = DEFAULT_BATCH): Promise<void> {
    const sendable: string[] = [];
    for (const recipient of recipients) {
      const local = localRefusal(recipient, this.smtputf8);
      if (local) replies.set(recipient, local);
      else if (!sendable.includes(recipient)) sendable.push(recipient);
    }
    if (this.endedBy) {
      everyone(sendable, replies, this.endedBy, this.endedBy === this.hello ? 'helo' : 'mail');
      return;
    }
    if (sendable.length === 0) return;

    const needsUtf8 = nonAscii(this.from) || sendable.some(nonAscii);
    const mailFrom = `MAIL FROM:<${this.from}>${needsUtf8 && this.smtputf8 ? ' SMTPUTF8' : ''}`;
    const pipelining = this.extensions.has('PIPELINING');
    const size = Math.max(1, batchSize);
    const queue = [...sendable];
    while (queue.length > 0) {
      const batch = queue.splice(0, size);
      // RFC 2920: RSET, MAIL FROM and RCPT may share one write; the replies come in order.
      const opening = this.transactions++ > 0 ? ['RSET', mailFrom] : [mailFrom];
      if (pipelining) this.transport.write(...opening, ...batch.map((recipient) => `RCPT TO:<${recipient}>`));
      else for (const line of opening.slice(0, -1)) await this.transport.command(line);
      if (opening.length > 1 && pipelining) await this.transport.read(); // RSET's reply
      const mail = pipelining ? await this.transport.read() : await this.transport.command(mailFrom);
      if (mail.code !== 250) {
        // Any RCPT replies still coming (503, bad sequence) say nothing about the recipients.
        this.endedBy = mail;
        everyone([...batch, ...queue], replies, mail, 'mail');
        return;
      }
      const { retry, closedBy } = await rcptBatch(this.transport, batch, pipelining, replies);
      if (closedBy) {
        this.endedBy = closedBy;
        everyone([...retry, ...queue], replies, closedBy, 'rcpt');
        return;
      }
      queue.unshift(...retry);
    }
  }

  /**
   * Several `ask`s at once, group by group in order (a group's replies into `replies[i]`, then
   * `answered(i)`). Under PIPELINING every transaction of every group is written in one go and
   * the replies are read as they come (RFC 2920 lets RSET, MAIL FROM and RCPT follow each other
   * unanswered), so a round costs one round trip however many domains it holds; each transaction
   * is still judged by its own replies. Groups not answered when the session ends (a 421, a
   * refused greeting after the first group) are left for the caller; a TransportError leaves the
   * group being read with what it had.
   */
  async askAll(
    groups: readonly (readonly string[])[],
    replies: readonly Map<string, RecipientReply>[],
    answered: (index: number) => void,
    batchSize = DEFAULT_BATCH,
  ): Promise<void> {
    if (!this.extensions.has('PIPELINING') || this.endedBy) {
      for (const [index, group] of groups.entries()) {
        if (index > 0 && !this.usable) return;
        await this.ask(group, replies[index]!, batchSize);
        answered(index);
      }
      return;
    }
    const size = Math.max(1, batchSize);
    const plan: { group: number; batch: string[]; mailFrom: string; reset: boolean }[] = [];
    for (const [index, group] of groups.entries()) {
      const sendable: string[] = [];
      for (const recipient of group) {
        const local = localRefusal(recipient, this.smtputf8);
        if (local) replies[index]!.set(recipient, local);
        else if (!sendable.includes(recipient)) sendable.push(recipient);
      }
      const needsUtf8 = nonAscii(this.from) || sendable.some(nonAscii);
      const mailFrom = `MAIL FROM:<${this.from}>${needsUtf8 && this.smtputf8 ? ' SMTPUTF8' : ''}`;
      for (let at = 0; at < sendable.length; at += size)
        plan.push({ group: index, batch: sendable.slice(at, at + size), mailFrom, reset: this.transactions++ > 0 });
    }
    this.transport.write(
      ...plan.flatMap((t) => [...(t.reset ? ['RSET'] : []), t.mailFrom, ...t.batch.map((recipient) => `RCPT TO:<${recipient}>`)]),
    );

    const left = new Map<number, number>();
    for (const t of plan) left.set(t.group, (left.get(t.group) ?? 0) + 1);
    for (let index = 0; index < groups.length; index++) if (!left.has(index)) answered(index);
    // "Too many recipients" is asked again in a transaction of its own, once the pipeline is read.
    const retries = new Map<number, string[]>();
    const read = (group: number) => {
      const remaining = left.get(group)! - 1;
      left.set(group, remaining);
      if (remaining === 0 && !retries.has(group)) answered(group);
    };
    for (const [at, t] of plan.entries()) {
      const groupReplies = replies[t.group]!;
      if (t.reset) await this.transport.read();
      const mail = await this.transport.read();
      if (mail.code !== 250) {
        everyone(t.batch, groupReplies, mail, 'mail');
        if (mail.code === 421) return this.closedBy(mail, 'mail', plan.slice(at + 1), t.group, replies, answered);
        // The RCPTs that followed the refused MAIL FROM (503, bad sequence) say nothing.
        for (let i = 0; i < t.batch.length; i++) await this.transport.read();
        read(t.group);
        continue;
      }
      const { retry, closedBy } = await rcptBatch(this.transport, t.batch, true, groupReplies);
      if (closedBy) {
        everyone(retry, groupReplies, closedBy, 'rcpt');
        return this.closedBy(closedBy, 'rcpt', plan.slice(at + 1), t.group, replies, answered);
      }
      if (retry.length > 0) retries.set(t.group, [...(retries.get(t.group) ?? []), ...retry]);
      read(t.group);
    }
    for (const [group, retry] of retries) {
      if (left.get(group) !== 0) continue;
      await this.ask(retry, replies[group]!, size);
      answered(group);
    }
  }

  /**
   * A 421 ended the session while a group was being read: that group's unanswered recipients
   * get it (as `ask` gives it), and it is answered; the groups after it are not.
   */
  private closedBy(
    reply: SmtpReply,
    stage: 'mail' | 'rcpt',
    rest: readonly { group: number; batch: string[] }[],
    group: number,
    replies: readonly Map<string, RecipientReply>[],
    answered: (index: number) => void,
  ): void {
    this.endedBy = reply;
    for (const t of rest) if (t.group === group) everyone(t.batch, replies[group]!, reply, stage);
    answered(group);
  }

  /** QUIT (none after a 421: the server is already closing), then the socket is closed. */
  async end(): Promise<void> {
    if (this.endedBy?.code === 421) this.transport.close();
    else await this.transport.quit();
  }

  /** Closes the socket at once. */
  close(): void {
    this.transport.close();
  }
}

/** EHLO, falling back to HELO when the server does not know EHLO (a 5xx other than 554). */
async function greet(transport: SmtpTransport, helo: string): Promise<SmtpReply> {
  const ehlo = await transport.command(`EHLO ${helo}`);
  if (ehlo.code >= 500 && ehlo.code !== 554) {
    const plain = await transport.command(`HELO ${helo}`);
    return { ...plain, lines: [plain.lines[0] ?? ''] };
  }
  return ehlo;
}

/**
 * RCPT for each recipient of a batch (with PIPELINING, already written with the MAIL FROM),
 * recording each reply as it comes (so a failure mid-batch keeps what was learnt). Returns the recipients to ask again in a new transaction, and the 421
 * that ended the session if the server closed it.
 */
async function rcptBatch(
  transport: SmtpTransport,
  batch: string[],
  pipelining: boolean,
  replies: Map<string, RecipientReply>,
): Promise<{ retry: string[]; closedBy?: SmtpReply }> {
  const retry: string[] = [];
  for (const [index, recipient] of batch.entries()) {
    if (!pipelining) transport.write(`RCPT TO:<${recipient}>`);
    const reply = await transport.read();
    if (reply.code === 421) return { retry: [...retry, ...batch.slice(index)], closedBy: reply };
    // "Too many recipients" for the first RCPT of a transaction is not about the count.
    if (isTooManyRecipients(reply) && index > 0) retry.push(recipient);
    else replies.set(recipient, record(reply, 'rcpt'));
  }
  return { retry };
}

/** What an error thrown by a session (`ask`) means, with the replies obtained before it. */
export function sessionFailure(error: unknown, replies: Map<string, RecipientReply>): SessionFailed {
  const partial = replies.size > 0 ? { partial: replies } : {};
  if (!(error instanceof TransportError)) return { kind: 'protocol-error', detail: String(error), ...partial };
  switch (error.kind) {
    case 'refused':
    case 'unreachable':
    case 'connect-timeout':
    case 'timeout':
      return { kind: error.kind, detail: error.message, ...partial };
    case 'tls':
      return { kind: 'tls-failed', detail: error.message, ...partial };
    case 'proxy':
      return { kind: 'proxy-failed', detail: error.message, ...partial };
    case 'closed':
    case 'protocol':
      return { kind: 'protocol-error', detail: error.message, ...partial };
  }
}
