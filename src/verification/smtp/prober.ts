/**
 * Mailbox probes against one MX host: its addresses in order (the next one on refused or
 * unreachable), under a per-host concurrency limit, several recipients in one session.
 * Greylisting and other retries are the caller's: it owns the time budget and the verdict.
 */
import { createHostLimiter, type HostLimiter } from './host-limiter.js';
import type { SmtpReply } from './smtp-reply.js';
import { runSmtpSession, type RecipientReply, type SessionResult } from './smtp-session.js';

export interface SmtpProberOptions {
  port: number;
  /** EHLO name (MAILSURE_SMTP_HELO). */
  helo: string;
  /** MAIL FROM address (MAILSURE_SMTP_FROM). */
  from: string;
  /** Concurrent sessions per MX host (default 2). */
  maxSessionsPerHost?: number;
  /** The limiter holding that limit; default: this process's own (scale-out shares one in Redis). */
  limiter?: HostLimiter;
  /** TCP connect timeout per address (default 5 s), always capped by the probe's deadline. */
  connectTimeoutMs?: number;
  /** Told what each connection showed of our own egress and reputation (prober health). */
  observer?: ProbeObserver;
}

/** What the prober reports of each session to whoever watches its health (health/prober-health.ts). */
export interface ProbeObserver {
  /** A connection attempt to one MX address: did it get as far as the server's banner? */
  connection(host: string, address: string, connected: boolean, detail: string): void;
  /** A refusal of the probe itself (banner, HELO, MAIL or a policy reply to RCPT), with its text. */
  refusal(host: string, text: string): void;
}

export interface ProbeTarget {
  /** MX host name: the limiter's key and the TLS server name. */
  host: string;
  /** Its addresses, in the order to try. */
  addresses: readonly string[];
}

export type ProbeOutcome =
  | {
      kind: 'replies';
      replies: Map<string, RecipientReply>;
      tls: boolean;
      smtputf8: boolean;
      /** The address that answered. */
      address: string;
    }
  | {
      kind: 'refused' | 'timeout' | 'banner-reject' | 'protocol-error';
      detail: string;
      reply?: SmtpReply;
      /** Replies obtained before a timeout or protocol error. */
      partial?: Map<string, RecipientReply>;
    };

export interface SmtpProber {
  /** `deadline`: absolute time, `Date.now()` clock; the outcome is `timeout` if it passes. */
  probe(target: ProbeTarget, recipients: readonly string[], deadline: number): Promise<ProbeOutcome>;
}

export const SESSIONS_PER_HOST = 2;

export function createSmtpProber(options: SmtpProberOptions): SmtpProber {
  const limiter = options.limiter ?? createHostLimiter(options.maxSessionsPerHost ?? SESSIONS_PER_HOST);
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000;

  return {
    async probe(target, recipients, deadline) {
      const release = await limiter.acquire(target.host, deadline);
      if (!release) return { kind: 'timeout', detail: `no free session slot for ${target.host} before the deadline` };
      try {
        return await tryAddresses(target, recipients, deadline);
      } finally {
        release();
      }
    },
  };

  async function tryAddresses(target: ProbeTarget, recipients: readonly string[], deadline: number): Promise<ProbeOutcome> {
    const failures: string[] = [];
    let connectTimedOut = false;
    for (const address of target.addresses) {
      const session = (startTls: boolean) =>
        runSmtpSession({ address, port: options.port, hostname: target.host, helo: options.helo, from: options.from, recipients, deadline, connectTimeoutMs, startTls });
      let result: SessionResult = await session(true);
      // A server that offers STARTTLS and then fails the handshake (old ciphers, broken
      // certificate chain) still takes plaintext mail; senders fall back the same way.
      if (result.kind === 'tls-failed') result = await session(false);
      if (options.observer) observe(options.observer, target.host, address, result);
      switch (result.kind) {
        case 'replies':
          return { ...result, address };
        case 'refused':
        case 'unreachable':
        case 'connect-timeout':
          connectTimedOut ||= result.kind === 'connect-timeout';
          failures.push(`${address}: ${result.detail}`);
          continue;
        case 'tls-failed':
          return { kind: 'protocol-error', detail: result.detail };
        case 'timeout':
        case 'banner-reject':
        case 'protocol-error': {
          const { kind, detail, reply, partial } = result;
          return { kind, detail, ...(reply ? { reply } : {}), ...(partial ? { partial } : {}) };
        }
      }
    }
    if (failures.length === 0) return { kind: 'refused', detail: `${target.host} has no addresses` };
    return { kind: connectTimedOut ? 'timeout' : 'refused', detail: failures.join('; ') };
  }
}

/** Connections that got a banner, and refusals of the probe, for the health observer. */
function observe(observer: ProbeObserver, host: string, address: string, result: SessionResult): void {
  switch (result.kind) {
    case 'replies':
      observer.connection(host, address, true, 'connected');
      for (const reply of result.replies.values()) {
        if (reply.class === 'policy' && reply.stage !== 'local') observer.refusal(host, `${reply.code} ${reply.enhanced ? `${reply.enhanced} ` : ''}${reply.text}`);
      }
      return;
    case 'banner-reject':
      observer.connection(host, address, true, result.detail);
      observer.refusal(host, result.detail);
      return;
    case 'refused':
    case 'unreachable':
    case 'connect-timeout':
      observer.connection(host, address, false, `${result.kind}: ${result.detail}`);
      return;
    default:
      // Timed out or broke off: before the banner, the way out is in doubt; after it, it worked.
      observer.connection(host, address, result.bannerSeen === true, result.bannerSeen ? 'connected' : `no banner: ${result.detail}`);
  }
}

export type { RecipientReply } from './smtp-session.js';
export type { ReplyClass } from './reply-class.js';
