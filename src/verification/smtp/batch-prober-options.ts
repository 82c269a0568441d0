/**
 * What the shared session pool (batch-prober.ts) is given: how much one session carries (plain
 * numbers a provider profile may set per host) and the prober's options.
 */
import type { SocksProxy } from '../../core/socks-proxy-url.js';
import type { EgressChooser } from './egress.js';
import type { EgressPool } from './egress-pool.js';
import type { HostLimiter } from './host-limiter.js';
import type { HostSessionOptions } from './open-on-host.js';
import { SESSIONS_PER_HOST, type ProbeObserver, type ProbeTarget } from './prober.js';
import type { Throttle } from './throttle.js';

/** How much one session carries: plain numbers, so a provider profile can set them per host. */
export interface SessionLimits {
  /** Concurrent sessions per MX host (the limiter's own figure; default 2). */
  maxSessionsPerHost: number;
  /** RCPTs one session sends before it QUITs (default 100). */
  rcptsPerSession: number;
  /** RCPTs per transaction (default 50, half of what RFC 5321 §4.5.3.1.8 guarantees). */
  rcptsPerTransaction: number;
  /**
   * One domain per transaction (RSET + MAIL FROM between domains; default true): receivers
   * route and count a transaction by its recipients' domain (hosted tenants), so each domain is
   * asked as it would be alone. A profile of a receiver that does not may turn it off.
   */
  transactionPerDomain: boolean;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  maxSessionsPerHost: SESSIONS_PER_HOST,
  rcptsPerSession: 100,
  rcptsPerTransaction: 50,
  transactionPerDomain: true,
};

export interface BatchingProberOptions extends Partial<SessionLimits> {
  port: number;
  /** EHLO name (MAILSURE_SMTP_HELO). */
  helo: string;
  /** SOCKS5 proxy every session goes through (MAILSURE_SMTP_PROXY); default: direct. */
  proxy?: SocksProxy;
  /** Per MX host, the EHLO name and proxy to use instead of `helo` and `proxy` (as the prober's). */
  egress?: EgressChooser;
  /**
   * Several ways out (egress-pool.ts), over `egress`: each session takes the usable egress with
   * the fewest sessions at its place, one with budget left first; each egress has its own
   * sessions per host and budget. A session whose egress fails leaves its waiting probes to the
   * others; they are `egress-failed` only when none is left.
   */
  pool?: EgressPool;
  from: string;
  /**
   * Where each MX host's sessions are shared and counted (the limiter's key) and its own limits
   * over the figures above (profile-limits.ts); default: by host name, the figures above.
   */
  sessionPlace?: (target: ProbeTarget) => { key: string; limits: Partial<SessionLimits> };
  /** The limiter holding `maxSessionsPerHost`; default: this process's own. */
  limiter?: HostLimiter;
  connectTimeoutMs?: number;
  observer?: ProbeObserver;
  /** Connections per provider and egress address (throttle.ts); default: unthrottled. */
  throttle?: Throttle;
  /** How a connection is made (default: a real socket; tests of the pool give a scripted one). */
  connect?: HostSessionOptions['connect'];
  /** How long a session with nothing to ask waits for more before it QUITs (default 50 ms). */
  idleMs?: number;
  /**
   * The same, for a session that has served a real-time call (default 2 s): the next calls, a
   * moment later, find it open instead of each taking a connection (and a budget token) of its own.
   */
  realTimeIdleMs?: number;
  /**
   * Time a session needs once connected (default 2 s): a probe waits for a new connection (slot,
   * budget token, connect) only until this long before its deadline; past that it is answered
   * `throttled` at once when a budget is what it waits for, and no token is taken for it.
   */
  reserveMs?: number;
  /** The longest one session lives, and holds its slot (default and at most MAX_HOLD_MS, 30 s). */
  sessionMs?: number;
}
