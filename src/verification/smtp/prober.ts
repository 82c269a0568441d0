/**
 * Mailbox probes against one MX host: its addresses in order (the next one on refused or
 * unreachable), under a per-host concurrency limit, several recipients in one session.
 * Greylisting and other retries are the caller's: it owns the time budget and the verdict.
 */
import type { SocksProxy } from '../../core/socks-proxy-url.js';
import { describeVia, type EgressChooser, type SmtpEgress } from './egress.js';
import { createHostLimiter, type HostLimiter } from './host-limiter.js';
import type { SmtpReply } from './smtp-reply.js';
import { runSmtpSession, type RecipientReply, type SessionResult } from './smtp-session.js';

export interface SmtpProberOptions {
  port: number;
  /** EHLO name (MAILSURE_SMTP_HELO). */
  helo: string;
  /** SOCKS5 proxy every probe goes through (MAILSURE_SMTP_PROXY); default: direct. */
  proxy?: SocksProxy;
  /** Per MX host, the EHLO name and proxy to use instead of `helo` and `proxy` (a provider table's choice). */
  egress?: EgressChooser;
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
  /** The way out failed before any MX host was reached (the SOCKS proxy down or refusing us). */
  egressFailed(host: string, detail: string): void;
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
      /** `egress-failed`: the proxy failed us; nothing is known of the host (never the domain's fault). */
      kind: 'refused' | 'timeout' | 'banner-reject' | 'protocol-error' | 'egress-failed';
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
  const fixed: SmtpEgress = { helo: options.helo, ...(options.proxy ? { proxy: options.proxy } : {}) };
  const egressFor = options.egress ?? (() => fixed);

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
    const egress = egressFor(target.host);
    const via = egress.proxy ? { proxy: egress.proxy } : {};
    for (const address of target.addresses) {
      const session = (startTls: boolean) =>
        runSmtpSession({ address, port: options.port, hostname: target.host, helo: egress.helo, from: options.from, recipients, deadline, connectTimeoutMs, startTls, ...via });
      let result: SessionResult = await session(true);
      // A server that offers STARTTLS and then fails the handshake (old ciphers, broken
      // certificate chain) still takes plaintext mail; senders fall back the same way.
      if (result.kind === 'tls-failed') result = await session(false);
      if (options.observer) observe(options.observer, target.host, address, result);
      switch (result.kind) {
        case 'replies':
          return { ...result, address };
        case 'proxy-failed':
          // The same proxy would fail the next address too: our egress, not this host.
          return { kind: 'egress-failed', detail: result.detail };
        case 'refused':
        case 'unreachable':
        case 'connect-timeout':
          connectTimedOut ||= result.kind === 'connect-timeout';
          failures.push(`${address}${egress.proxy ? ` ${describeVia(egress)}` : ''}: ${result.detail}`);
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
    case 'proxy-failed':
      observer.egressFailed(host, result.detail);
      return;
    default:
      // Timed out or broke off: before the banner, the way out is in doubt; after it, it worked.
      observer.connection(host, address, result.bannerSeen === true, result.bannerSeen ? 'connected' : `no banner: ${result.detail}`);
  }
}

export type { RecipientReply } from './smtp-session.js';
export type { ReplyClass } from './reply-class.js';
