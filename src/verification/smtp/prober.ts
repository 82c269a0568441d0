/**
 * Mailbox probes against one MX host: its addresses in order (the next one on refused or
 * unreachable), under a per-host concurrency limit, several recipients in one session.
 * Greylisting and other retries are the caller's: it owns the time budget and the verdict.
 */
import type { SocksProxy } from '../../core/socks-proxy-url.js';
import type { EgressChooser, SmtpEgress } from './egress.js';
import { createHostLimiter, type HostLimiter } from './host-limiter.js';
import { observeRefusals, openOnHost, probeFailure } from './open-on-host.js';
import { slowDownIfAsked, type Throttle } from './throttle.js';
import type { SmtpReply } from './smtp-reply.js';
import type { Lane } from './session-queue.js';
import { sessionFailure, type RecipientReply } from './smtp-session.js';

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
  /** Where each MX host's sessions are counted, and its own session limit (its provider profile's); default: by host name. */
  sessionPlace?: (target: ProbeTarget) => { key: string; limits: { maxSessionsPerHost?: number } };
  /** TCP connect timeout per address (default 5 s), always capped by the probe's deadline. */
  connectTimeoutMs?: number;
  /** Connections per provider and egress address (throttle.ts); default: unthrottled. */
  throttle?: Throttle;
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
      /** `throttled`: the connection budget of the provider (for this egress) was spent until past the deadline. */
      kind: 'refused' | 'timeout' | 'banner-reject' | 'protocol-error' | 'egress-failed' | 'throttled';
      detail: string;
      reply?: SmtpReply;
      /** Replies obtained before a timeout or protocol error. */
      partial?: Map<string, RecipientReply>;
    };

export interface SmtpProber {
  /** `deadline`: absolute time, `Date.now()` clock; the outcome is `timeout` if it passes. */
  probe(target: ProbeTarget, recipients: readonly string[], deadline: number, options?: ProbeOptions): Promise<ProbeOutcome>;
}

/** What a pool of shared sessions (batch-prober.ts) needs to know of a probe; a prober of its own sessions ignores it. */
export interface ProbeOptions {
  /** `real-time` probes go ahead of list rows in a shared session (default `list`). */
  lane?: Lane;
  /** The recipient that is the domain's catch-all probe (a random local part): asked once per session and domain, its reply shared. */
  catchAllProbe?: string;
}

export const SESSIONS_PER_HOST = 2;

export function createSmtpProber(options: SmtpProberOptions): SmtpProber {
  const limiter = options.limiter ?? createHostLimiter(options.maxSessionsPerHost ?? SESSIONS_PER_HOST);
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
  const fixed: SmtpEgress = { helo: options.helo, ...(options.proxy ? { proxy: options.proxy } : {}) };
  const egressFor = options.egress ?? (() => fixed);

  return {
    async probe(target, recipients, deadline) {
      const place = options.sessionPlace?.(target);
      const release = await (place ? limiter.acquire(place.key, deadline, place.limits.maxSessionsPerHost) : limiter.acquire(target.host, deadline));
      if (!release) return { kind: 'timeout', detail: `no free session slot for ${target.host} before the deadline` };
      try {
        return await tryAddresses(target, recipients, deadline);
      } finally {
        release();
      }
    },
  };

  async function tryAddresses(target: ProbeTarget, recipients: readonly string[], deadline: number): Promise<ProbeOutcome> {
    const egress = egressFor(target.host);
    const { observer, throttle } = options;
    const opened = await openOnHost(target, { port: options.port, egress, from: options.from, connectTimeoutMs, ...(observer ? { observer } : {}), ...(throttle ? { throttle } : {}) }, deadline);
    if (opened.kind !== 'open') return opened;
    const { session, address } = opened;
    const replies = new Map<string, RecipientReply>();
    try {
      await session.ask(recipients, replies);
    } catch (error) {
      session.close();
      const failure = probeFailure(sessionFailure(error, replies));
      await slowDownIfAsked(throttle, target.host, egress, [...(failure.reply ? [failure.reply] : []), ...replies.values()]);
      return failure;
    }
    observeRefusals(observer, target.host, replies.values());
    await slowDownIfAsked(throttle, target.host, egress, replies.values());
    const outcome: ProbeOutcome = { kind: 'replies', replies, tls: session.tls, smtputf8: session.smtputf8, address };
    await session.end();
    return outcome;
  }
}

export type { RecipientReply } from './smtp-session.js';
export type { ReplyClass } from './reply-class.js';
