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
import { classifyEnvelopeReply, classifyRcptReply, isTooManyRecipients, type ReplyClass } from './reply-class.js';
import type { SocksProxy } from '../../core/socks-proxy-url.js';
import { ehloKeywords, type ReplyLimits, type SmtpReply } from './smtp-reply.js';
import { SmtpTransport, TransportError } from './smtp-transport.js';

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
}

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

/** `proxy-failed`: the SOCKS proxy failed us; nothing was learnt about the target. */
export type SessionFailure = 'refused' | 'unreachable' | 'connect-timeout' | 'timeout' | 'banner-reject' | 'protocol-error' | 'tls-failed' | 'proxy-failed';

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
const nonAscii = (text: string): boolean => /[^\p{ASCII}]/u.test(text);
// Anything that could end or split a command line, or break out of the <…> path.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSENDABLE = /[\u0000-\u001f\u007f<>]/u;

export async function runSmtpSession(options: SessionOptions): Promise<SessionResult> {
  const replies = new Map<string, RecipientReply>();
  let transport: SmtpTransport;
  try {
    transport = await SmtpTransport.connect(options);
  } catch (error) {
    return failure(error, replies);
  }
  const progress = { bannerSeen: false };
  try {
    return await converse(transport, options, replies, progress);
  } catch (error) {
    transport.close();
    const failed = failure(error, replies);
    return progress.bannerSeen && failed.kind !== 'replies' ? { ...failed, bannerSeen: true } : failed;
  }
}

async function converse(
  transport: SmtpTransport,
  options: SessionOptions,
  replies: Map<string, RecipientReply>,
  progress: { bannerSeen: boolean },
): Promise<SessionResult> {
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
  const smtputf8 = extensions.has('SMTPUTF8');
  const done = (): SessionResult => ({ kind: 'replies', replies, tls: transport.tls, smtputf8 });

  const sendable: string[] = [];
  for (const recipient of options.recipients) {
    const local = localRefusal(recipient, smtputf8);
    if (local) replies.set(recipient, local);
    else if (!sendable.includes(recipient)) sendable.push(recipient);
  }
  if (hello.code !== 250) {
    everyone(sendable, replies, hello, 'helo');
    return closing(transport, hello, done);
  }
  if (sendable.length === 0) return quit(transport, done);

  const needsUtf8 = nonAscii(options.from) || sendable.some(nonAscii);
  const mailFrom = `MAIL FROM:<${options.from}>${needsUtf8 && smtputf8 ? ' SMTPUTF8' : ''}`;
  const pipelining = extensions.has('PIPELINING');
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH);
  const queue = [...sendable];
  let transactions = 0;
  while (queue.length > 0) {
    if (transactions++ > 0) await transport.command('RSET');
    const mail = await transport.command(mailFrom);
    if (mail.code !== 250) {
      everyone(queue, replies, mail, 'mail');
      return closing(transport, mail, done);
    }
    const batch = queue.splice(0, batchSize);
    const { retry, closedBy } = await rcptBatch(transport, batch, pipelining, replies);
    if (closedBy) {
      everyone([...retry, ...queue], replies, closedBy, 'rcpt');
      return closing(transport, closedBy, done);
    }
    queue.unshift(...retry);
  }
  return quit(transport, done);
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
 * RCPT for each recipient of a batch, recording each reply as it comes (so a failure mid-batch
 * keeps what was learnt). Returns the recipients to ask again in a new transaction, and the 421
 * that ended the session if the server closed it.
 */
async function rcptBatch(
  transport: SmtpTransport,
  batch: string[],
  pipelining: boolean,
  replies: Map<string, RecipientReply>,
): Promise<{ retry: string[]; closedBy?: SmtpReply }> {
  const retry: string[] = [];
  if (pipelining) transport.write(...batch.map((recipient) => `RCPT TO:<${recipient}>`));
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

function localRefusal(recipient: string, smtputf8: boolean): RecipientReply | undefined {
  if (UNSENDABLE.test(recipient)) {
    return { class: 'rejected-other', greylisted: false, code: 501, enhanced: '5.1.3', text: 'not sent: the address contains characters that cannot be sent in SMTP', stage: 'local' };
  }
  if (nonAscii(recipient) && !smtputf8) {
    // What an RFC 6531 server answers for this; we do not send what it could only refuse.
    return { class: 'rejected-other', greylisted: false, code: 553, enhanced: '5.6.7', text: 'not sent: non-ASCII address and the server does not offer SMTPUTF8', stage: 'local' };
  }
  return undefined;
}

function record(reply: SmtpReply, stage: RecipientReply['stage']): RecipientReply {
  const judged = stage === 'rcpt' ? classifyRcptReply(reply) : classifyEnvelopeReply(reply);
  return { ...judged, code: reply.code, ...(reply.enhanced ? { enhanced: reply.enhanced } : {}), text: reply.text, stage };
}

function everyone(recipients: string[], replies: Map<string, RecipientReply>, reply: SmtpReply, stage: RecipientReply['stage']): void {
  for (const recipient of recipients) if (!replies.has(recipient)) replies.set(recipient, record(reply, stage));
}

/** After a 421 the server is already closing: no QUIT. */
async function closing(transport: SmtpTransport, reply: SmtpReply, done: () => SessionResult): Promise<SessionResult> {
  if (reply.code === 421) {
    transport.close();
    return done();
  }
  return quit(transport, done);
}

async function quit(transport: SmtpTransport, done: () => SessionResult): Promise<SessionResult> {
  const result = done(); // read TLS state before the socket goes away
  await transport.quit();
  return result;
}

function failure(error: unknown, replies: Map<string, RecipientReply>): SessionResult {
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
