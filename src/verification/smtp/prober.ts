/**
 * Mailbox probes against one MX host: its addresses in order (the next one on refused or
 * unreachable), under a per-host concurrency limit, several recipients in one session.
 * Greylisting and other retries are the caller's: it owns the time budget and the verdict.
 */
import type { SocksProxy } from '../../core/socks-proxy-url.js';
import { egressLabel, type EgressChooser, type SmtpEgress } from './egress.js';
import { createHostLimiter, type HostLimiter } from './host-limiter.js';
import { observeRefusals, openOnHost, probeFailure } from './open-on-host.js';
import { slowDownIfAsked, type Throttle } from './throttle.js';
import type { SmtpReply } from './smtp-reply.js';
import type { Lane } from './session-queue.js';
import type { TranscriptStep } from './transcript.js';
import { sessionFailure, type RecipientReply, type SmtpSession } from './smtp-session.js';

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

/** Whether one recipient's reply settles the probe: the replies so far are its outcome, without waiting for the others. */
export type Decisive = (recipient: string, reply: RecipientReply) => boolean;

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
  /**
   * A reply it accepts ends the probe at once (a tarpit answering the next RCPT slowly must not
   * keep an unknown user's 550 waiting); a session of its own is then closed, not reused.
   */
  decisive?: Decisive;
  /** The API key the probe is for: a shared session's rounds take keys in turn (the per-key share). */
  key?: number;
  /** Told what this probe saw of each MX host's conversation (a verdict's evidence); absent, nothing is kept. */
  record?: (record: ProbeRecord) => void;
}

/**
 * One MX host's part in a probe, for a verdict's evidence: only this probe's recipients' RCPTs
 * (its address and its catch-all probe) beside the session's own commands, never another call's.
 */
export interface ProbeRecord {
  host: string;
  /** The MX address that answered, when a connection got that far. */
  address?: string;
  /** The egress as an opaque label (egress.ts: `egress-N` or the operator's name). */
  egress: string;
  tls?: boolean;
  steps: TranscriptStep[];
  /** Read from a concurrent probe of the same address (single flight), not asked by this call. */
  joined?: true;
}

/** What a probe saw of its session: set once connected, read for its record. */
export interface SessionSeen {
  session?: SmtpSession;
  address?: string;
  /** Where its part of the session's transcript starts. */
  from?: number;
  /** Another probe's catch-all probe whose reply it read (the pool's). */
  catchAllFrom?: string;
  /** The egress its session went out through (the pool's choice). */
  egress?: SmtpEgress;
}

/** A probe's record from what it saw: the session's own commands and its own recipients' RCPTs, marked. */
export function probeRecord(
  host: string,
  egress: SmtpEgress,
  seen: SessionSeen,
  recipients: readonly string[],
  catchAllProbe: string | undefined,
): ProbeRecord {
  const roles = new Map<string, 'address' | 'catch-all-probe'>();
  for (const recipient of recipients) roles.set(recipient, recipient === catchAllProbe ? 'catch-all-probe' : 'address');
  if (seen.catchAllFrom !== undefined) roles.set(seen.catchAllFrom, 'catch-all-probe');
  const { session } = seen;
  const steps = session?.transcript?.view({ from: seen.from ?? 0, recipients: roles }) ?? [];
  return {
    host,
    ...(seen.address ? { address: seen.address } : {}),
    egress: egressLabel(egress),
    ...(session ? { tls: session.tls } : {}),
    steps,
  };
}

export const SESSIONS_PER_HOST = 2;

export function createSmtpProber(options: SmtpProberOptions): SmtpProber {
  const limiter = options.limiter ?? createHostLimiter(options.maxSessionsPerHost ?? SESSIONS_PER_HOST);
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
  const fixed: SmtpEgress = { helo: options.helo, ...(options.proxy ? { proxy: options.proxy } : {}) };
  const egressFor = options.egress ?? (() => fixed);

  return {
    async probe(target, recipients, deadline, probeOptions) {
      const place = options.sessionPlace?.(target);
      const release = await (place
        ? limiter.acquire(place.key, deadline, place.limits.maxSessionsPerHost)
        : limiter.acquire(target.host, deadline));
      if (!release) return { kind: 'timeout', detail: `no free session slot for ${target.host} before the deadline` };
      try {
        const seen: SessionSeen = {};
        const outcome = await tryAddresses(target, recipients, deadline, probeOptions?.decisive, seen);
        probeOptions?.record?.(probeRecord(target.host, egressFor(target.host), seen, recipients, probeOptions.catchAllProbe));
        return outcome;
      } finally {
        release();
      }
    },
  };

  async function tryAddresses(
    target: ProbeTarget,
    recipients: readonly string[],
    deadline: number,
    decisive: Decisive | undefined,
    seen: SessionSeen,
  ): Promise<ProbeOutcome> {
    const egress = egressFor(target.host);
    const { observer, throttle } = options;
    const opened = await openOnHost(
      target,
      {
        port: options.port,
        egress,
        from: options.from,
        connectTimeoutMs,
        ...(observer ? { observer } : {}),
        ...(throttle ? { throttle } : {}),
      },
      deadline,
    );
    if (opened.kind !== 'open') return opened;
    const { session, address } = opened;
    Object.assign(seen, { session, address, from: session.transcript?.mark() ?? 0 });
    const settled = settledBy(decisive);
    const replies = settled.replies;
    try {
      const asked = session.ask(recipients, replies);
      if ((await Promise.race([asked.then(() => 'asked' as const), settled.promise])) === 'settled') {
        asked.catch(() => undefined); // the close below ends it
        session.close();
        observeRefusals(observer, target.host, replies.values());
        return { kind: 'replies', replies: new Map(replies), tls: session.tls, smtputf8: session.smtputf8, address };
      }
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

/** A reply map that resolves `promise` when a decisive reply is recorded (the session records each as it comes). */
function settledBy(decisive: Decisive | undefined): { replies: Map<string, RecipientReply>; promise: Promise<'settled'> } {
  let settle: (value: 'settled') => void = () => undefined;
  const promise = new Promise<'settled'>((resolve) => (settle = resolve));
  class Watched extends Map<string, RecipientReply> {
    override set(recipient: string, reply: RecipientReply): this {
      super.set(recipient, reply);
      if (decisive?.(recipient, reply)) settle('settled');
      return this;
    }
  }
  return { replies: new Watched(), promise };
}

export type { RecipientReply } from './smtp-session.js';
export type { ReplyClass } from './reply-class.js';
