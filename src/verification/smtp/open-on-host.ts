/**
 * An SMTP session with one MX host: its addresses in order (the next one on refused or
 * unreachable), STARTTLS when offered with a fall back to plaintext when the handshake fails
 * (senders fall back the same way), and what each attempt showed reported to the health observer.
 * The way out (EHLO name, SOCKS5 proxy) is the egress chosen for the host; a proxy that fails
 * ends the attempt at once (`egress-failed`): the same proxy would fail the next address too.
 * Every connection first takes a token from the provider's connection budget for this egress
 * (throttle.ts); a budget spent past the deadline ends the attempt as `throttled` (unknown, never
 * invalid), and a banner that asks us to slow down cuts the budget.
 * Shared by the one-probe-one-session prober and the batching prober.
 */
import { isIP } from 'node:net';
import { describeVia, type SmtpEgress } from './egress.js';
import type { ProbeObserver, ProbeOutcome, ProbeTarget } from './prober.js';
import { budgetSpent, slowDownIfAsked, type Throttle } from './throttle.js';
import { openSmtpSession, type OpenResult, type RecipientReply, type SessionFailed, type SmtpSession } from './smtp-session.js';

export interface HostSessionOptions {
  port: number;
  /** EHLO name and proxy for this host (the prober's `EgressChooser`). */
  egress: SmtpEgress;
  from: string;
  connectTimeoutMs: number;
  observer?: ProbeObserver;
  /** The connection budget per provider and egress every connection takes from (default: none). */
  throttle?: Throttle;
  /**
   * Time a session needs once connected (banner, EHLO, MAIL, RCPT): no token is taken later than
   * this before the deadline, so a token is never spent on a session that cannot end in time
   * (default 0).
   */
  reserveMs?: number;
  /** Asked after a wait for a token: false when what the connection was for is gone (no token is taken then). */
  wanted?: () => boolean;
  /** Told each time the budget makes it wait: the earliest moment its token could come. */
  onWait?: (nextAt: number) => void;
  /** Told when the budget has given this connection its token (the connect itself follows). */
  onToken?: () => void;
  /** How a connection is made (default: openSmtpSession over a real socket; tests of the pool's decisions give a scripted one). */
  connect?: typeof openSmtpSession;
}

export type ProbeFailure = Exclude<ProbeOutcome, { kind: 'replies' }>;

export async function openOnHost(
  target: ProbeTarget,
  options: HostSessionOptions,
  deadline: number,
): Promise<{ kind: 'open'; session: SmtpSession; address: string } | ProbeFailure> {
  const failures: string[] = [];
  let connectTimedOut = false;
  const { egress } = options;
  const via = egress.proxy ? { proxy: egress.proxy } : egress.localAddress ? { localAddress: egress.localAddress } : {};
  const { throttle } = options;
  // A source address reaches only addresses of its own family.
  const family = egress.localAddress && !egress.proxy ? isIP(egress.localAddress) : 0;
  for (const address of target.addresses.filter((a) => family === 0 || isIP(a) === family)) {
    const connect = (startTls: boolean) =>
      (options.connect ?? openSmtpSession)({
        address,
        port: options.port,
        hostname: target.host,
        helo: egress.helo,
        from: options.from,
        deadline,
        connectTimeoutMs: options.connectTimeoutMs,
        startTls,
        ...via,
      });
    // Each connection takes its token first; a string is why the budget refused it.
    const open = async (startTls: boolean): Promise<OpenResult | string> => {
      const spent = await budgetSpent(throttle, target.host, egress, deadline - (options.reserveMs ?? 0), options.wanted, options.onWait);
      if (spent !== undefined) return spent;
      options.onToken?.();
      return connect(startTls);
    };
    let result = await open(true);
    // A server that offers STARTTLS and then fails the handshake (old ciphers, broken
    // certificate chain) still takes plaintext mail.
    if (typeof result !== 'string' && result.kind === 'tls-failed') result = await open(false);
    if (typeof result === 'string') return { kind: 'throttled', detail: result };
    if (options.observer) observeOpen(options.observer, target.host, address, result);
    if (result.kind === 'banner-reject' && result.reply) await slowDownIfAsked(throttle, target.host, egress, [result.reply]);
    switch (result.kind) {
      case 'open':
        return { kind: 'open', session: result.session, address };
      case 'refused':
      case 'unreachable':
      case 'connect-timeout':
        connectTimedOut ||= result.kind === 'connect-timeout';
        failures.push(`${address}${egress.proxy ? ` ${describeVia(egress)}` : ''}: ${result.detail}`);
        continue;
      case 'proxy-failed':
        // The same proxy would fail the next address too: our egress, not this host.
        return { kind: 'egress-failed', detail: result.detail };
      default:
        return probeFailure(result);
    }
  }
  if (failures.length === 0) return { kind: 'refused', detail: `${target.host} has no addresses` };
  return { kind: connectTimedOut ? 'timeout' : 'refused', detail: failures.join('; ') };
}

/** A session that broke off (timeout, protocol error, tls) as the probe's outcome, with what was answered. */
export function probeFailure(result: SessionFailed): ProbeFailure {
  if (result.kind === 'tls-failed') return { kind: 'protocol-error', detail: result.detail };
  if (result.kind === 'proxy-failed') return { kind: 'egress-failed', detail: result.detail };
  if (result.kind === 'refused' || result.kind === 'unreachable' || result.kind === 'connect-timeout') {
    return { kind: result.kind === 'connect-timeout' ? 'timeout' : 'refused', detail: result.detail };
  }
  const { kind, detail, reply, partial } = result;
  return { kind, detail, ...(reply ? { reply } : {}), ...(partial ? { partial } : {}) };
}

/** Refusals of the probe itself among a session's replies (a policy reply that was sent, not ours). */
export function observeRefusals(observer: ProbeObserver | undefined, host: string, replies: Iterable<RecipientReply>): void {
  if (!observer) return;
  for (const reply of replies) {
    if (reply.class === 'policy' && reply.stage !== 'local')
      observer.refusal(host, `${reply.code} ${reply.enhanced ? `${reply.enhanced} ` : ''}${reply.text}`);
  }
}

/** Connections that got a banner, and banner refusals, for the health observer. */
function observeOpen(observer: ProbeObserver, host: string, address: string, result: OpenResult): void {
  switch (result.kind) {
    case 'open':
      observer.connection(host, address, true, 'connected');
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
