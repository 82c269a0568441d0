/**
 * The pool of SMTP sessions every mailbox probe goes through, real-time calls' and lists' alike
 * (their decisions in session-queue.ts): real-time probes first in every round, the connection
 * (slot, budget token, connect) before the probes it serves, none taken for a probe that could
 * not use it in time, a session kept `realTimeIdleMs` after a real-time call so the next ones
 * find it open, and a domain's catch-all probe asked once per session.
 *
 * Mailbox probes that share sessions: probes for one MX host wait in that host's queue, and each
 * session (at most `maxSessionsPerHost` at once, through the same host limiter as every other
 * probe, so the limit holds across the real-time route, lists and, in scale-out, processes) takes
 * whatever is waiting, asks it one transaction per domain (RSET + MAIL FROM between them), answers
 * each probe as its transaction ends, and takes more while it has RCPTs left, until its queue
 * stays empty for `idleMs`. Then QUIT, and the slot is given back.
 *
 * Each probe gets exactly the outcome it would get from a session of its own: its recipients'
 * replies (RFC 5321 §3.3: a transaction's replies are independent per recipient), or the failure
 * of the transaction it was in (with its partial replies), or `timeout` at its own deadline.
 * A session failure reaches only the probes of the transaction it broke: probes that were still
 * waiting go back to the queue for another session. A session goes out the way a probe alone
 * would (the same egress: EHLO name and SOCKS5 proxy per MX host); when the proxy fails it, every
 * probe it took is `egress-failed`.
 *
 * A round's asking (transactions, the shared catch-all probe, a broken transaction's failure) is
 * pool-round.ts; the egress choice pool-egress.ts; when a waiting probe leaves, pool-leaving.ts.
 */
import { egressLabel, type SmtpEgress } from './egress.js';
import { poolEgress } from './pool-egress.js';
import { DEFAULT_SESSION_LIMITS, type BatchingProberOptions, type SessionLimits } from './batch-prober-options.js';
import { answerExpired, leaveUnasked, noTokenInTime, roomChanged, waitedTooLong } from './pool-leaving.js';
import { createHostLimiter, MAX_HOLD_MS } from './host-limiter.js';
import { openOnHost } from './open-on-host.js';
import { budgetKeyFor } from './throttle.js';
import { probeRecord, type ProbeOutcome, type ProbeTarget, type SmtpProber } from './prober.js';
import { connectBy, minLeft } from './session-queue.js';
import { askRound, type CatchAllAsked, type RoundDeps } from './pool-round.js';
import { claim, idle, latestDeadline, nextTurn, open, sessionLimits, timedOut, unclaim, type HostQueue, type Probe } from './pool-probe.js';

export { DEFAULT_SESSION_LIMITS, type BatchingProberOptions, type SessionLimits } from './batch-prober-options.js';

export function createBatchingProber(options: BatchingProberOptions): SmtpProber {
  const defaults = sessionLimits(DEFAULT_SESSION_LIMITS, options);
  const placeOf = (target: ProbeTarget): { key: string; limits: SessionLimits } => {
    if (!options.sessionPlace) return { key: target.host.toLowerCase(), limits: defaults };
    const place = options.sessionPlace(target);
    return { key: place.key, limits: sessionLimits(defaults, place.limits) };
  };
  const limiter = options.limiter ?? createHostLimiter(defaults.maxSessionsPerHost);
  const idleMs = options.idleMs ?? 50;
  const realTimeIdleMs = options.realTimeIdleMs ?? 2_000;
  const reserveMs = options.reserveMs ?? 2_000;
  const sessionMs = Math.min(options.sessionMs ?? MAX_HOLD_MS, MAX_HOLD_MS);
  const fixed: SmtpEgress = { helo: options.helo, ...(options.proxy ? { proxy: options.proxy } : {}) };
  const chooser = options.egress ?? (() => fixed);
  const { pooled, egressesOf, egressFor, observerFor, tokenWaited } = poolEgress(chooser, options.pool, options.observer);
  const hostOptions = {
    port: options.port,
    from: options.from,
    connectTimeoutMs: options.connectTimeoutMs ?? 5000,
    reserveMs,
    ...(options.connect ? { connect: options.connect } : {}),
    ...(options.observer ? { observer: options.observer } : {}),
    ...(options.throttle ? { throttle: options.throttle } : {}),
  };
  const queues = new Map<string, HostQueue>();
  const roundDeps: RoundDeps = { observer: options.observer, throttle: options.throttle, observerFor };

  return {
    probe(target, recipients, deadline, probeOptions = {}) {
      if (deadline <= Date.now()) return Promise.resolve({ kind: 'timeout', detail: 'deadline reached before probing' });
      // No egress left that this host's probes may take: unknown at once, our fault, never the address's.
      if (options.pool && options.pool.usable(target.host).length === 0)
        return Promise.resolve({ kind: 'egress-failed', detail: 'no healthy SMTP egress left for this host' });
      const place = placeOf(target);
      const key = `${place.key} ${target.addresses.join(',')}`;
      let queue = queues.get(key);
      if (!queue) {
        queue = {
          key,
          place: place.key,
          limits: place.limits,
          waiting: [],
          sessions: 0,
          idle: new Set(),
          takingNext: 0,
          connecting: 0,
          connected: 0,
          tokened: 0,
          byEgress: new Map(),
          tokenAt: new Map(),
          rooms: new Map(),
        };
        queues.set(key, queue);
      }
      const hostQueue = queue;
      return new Promise<ProbeOutcome>((resolve) => {
        const timer = setTimeout(() => probe.settle(timedOut(probe)), deadline - Date.now());
        // A probe still waiting for a connection when too little time is left to use one, while
        // the provider's budget is what sessions wait for, leaves at once: unknown, as throttled.
        const budgeted = options.throttle !== undefined && budgetKeyFor(target.host, chooser(target.host)).profile.kind !== 'default';
        const giveUp = budgeted
          ? setTimeout(() => waitedTooLong(hostQueue, probe), Math.max(connectBy(deadline, reserveMs) - Date.now(), 0))
          : undefined;
        // Past that moment it waits only for a session already connecting or connected, and
        // only half the reserve: a session that has not taken it by then will not in time.
        const lastCall = budgeted
          ? setTimeout(() => leaveUnasked(hostQueue, probe), Math.max(connectBy(deadline, reserveMs) - Date.now(), 0) + reserveMs / 2)
          : undefined;
        const probe: Probe = {
          target,
          lane: probeOptions.lane ?? 'list',
          recipients,
          ...(probeOptions.catchAllProbe !== undefined ? { catchAllProbe: probeOptions.catchAllProbe } : {}),
          ...(probeOptions.decisive ? { decisive: probeOptions.decisive } : {}),
          ...(probeOptions.key !== undefined ? { key: probeOptions.key } : {}),
          ...(probeOptions.record ? { record: probeOptions.record } : {}),
          deadline,
          // Asked only with time left for its round's replies (session-queue.ts).
          minLeftMs: minLeft(deadline - Date.now(), reserveMs),
          claimed: false,
          done: false,
          ...(budgeted ? { giveUpAt: connectBy(deadline, reserveMs) } : {}),
          settle(outcome) {
            if (probe.done) return;
            probe.done = true;
            clearTimeout(timer);
            clearTimeout(giveUp);
            clearTimeout(lastCall);
            probe.record?.(
              probeRecord(target.host, probe.seen?.egress ?? chooser(target.host), probe.seen ?? {}, recipients, probe.catchAllProbe),
            );
            resolve(outcome);
          },
        };
        hostQueue.waiting.push(probe);
        if (hostQueue.idle.size > 0) for (const wake of hostQueue.idle) wake();
        else if (needsSession(hostQueue)) void runSession(hostQueue);
      });
    },
  };

  /** One session's life: a slot, a connection, rounds of transactions while there is work. */
  async function runSession(queue: HostQueue): Promise<void> {
    const egress = egressFor(queue);
    if (!egress) return;
    const label = egressLabel(egress);
    queue.byEgress.set(label, (queue.byEgress.get(label) ?? 0) + 1);
    queue.sessions++;
    let next: 'again' | 'stop' = 'again';
    // Connecting from the start: the slot, the token and the connect are all what it waits for.
    const connecting = { done: false };
    queue.connecting++;
    const connected = () => {
      if (connecting.done) return;
      connecting.done = true;
      queue.connecting--;
    };
    try {
      const waitUntil = latestDeadline(open(queue));
      // Every probe still waiting is past its deadline (its timer not yet run, as on a loaded
      // machine): answered now, so that no session is started again for it, which would start
      // the next one in the same turn without end.
      if (waitUntil <= Date.now()) return answerExpired(queue);
      // Each egress has its own sessions per host: the provider counts them per address.
      const slotKey = pooled ? `${queue.place}|${label}` : queue.place;
      const release = await limiter.acquire(slotKey, waitUntil, queue.limits.maxSessionsPerHost);
      if (!release) return answerExpired(queue); // every waiting probe has timed out by its own deadline meanwhile
      // The session lives at most `sessionMs` from its slot (within the limiter's MAX_HOLD_MS).
      const holdUntil = Date.now() + sessionMs;
      try {
        next = await converse(queue, holdUntil, connected, egress);
      } finally {
        release();
      }
    } finally {
      connected();
      queue.sessions--;
      queue.byEgress.set(label, queue.byEgress.get(label)! - 1);
      const left = open(queue).length;
      if (left > 0 && next === 'again' && needsSession(queue)) void runSession(queue);
      else if (left === 0 && queue.sessions === 0) queues.delete(queue.key);
    }
  }

  /**
   * Whether what waits needs one more session: none is idle or about to take it, the place's
   * limit allows one, and more RCPTs wait than the sessions still connecting will carry (each of
   * those takes a budget token: one that finds nothing to ask would waste it).
   */
  function needsSession(queue: HostQueue): boolean {
    if (queue.idle.size > 0 || queue.takingNext > 0 || queue.sessions >= queue.limits.maxSessionsPerHost * egressesOf(queue).length)
      return false;
    const waitingRcpts = open(queue).reduce((sum, probe) => sum + probe.recipients.length, 0);
    return waitingRcpts > queue.connecting * queue.limits.rcptsPerSession;
  }

  /**
   * The connection comes first, then the probes: what waits once it is open (real-time first) is
   * its first round, so a probe whose time ran out while the token or the connect was awaited is
   * not in it, and the session's RCPTs go to probes that can still use them.
   */
  /** 'stop': the budget refused a token while another session serves the place: no new try from here. */
  async function converse(queue: HostQueue, holdUntil: number, connected: () => void, egress: SmtpEgress): Promise<'again' | 'stop'> {
    const { limits } = queue;
    let budget = limits.rcptsPerSession;
    const waiting = open(queue);
    if (waiting.length === 0) return 'again';
    const target = waiting[0]!.target;
    let opened: Awaited<ReturnType<typeof openOnHost>>;
    let tokened = false;
    const onToken = () => {
      queue.tokenAt.delete(waitFor);
      if (!tokened) queue.tokened++;
      tokened = true;
      queue.rooms.set(waitFor, budget);
    };
    // While the budget makes this session wait, a probe whose last moment to connect comes before
    // the earliest token of every session connecting to its place is answered at once (throttled).
    const waitFor = {};
    const onWait = (nextAt: number) => {
      tokenWaited(target.host, egress, nextAt);
      queue.tokenAt.set(waitFor, nextAt);
      noTokenInTime(queue, reserveMs);
    };
    try {
      // Still wanted after a wait for a token: a probe waits that has the time to use a session.
      const wanted = () => open(queue).some((probe) => connectBy(probe.deadline, reserveMs) > Date.now());
      const observer = options.observer || options.pool ? { observer: observerFor(egress) } : {};
      opened = await openOnHost(
        target,
        { ...hostOptions, ...observer, egress, onToken, onWait, wanted },
        Math.min(holdUntil, latestDeadline(waiting)),
      );
    } finally {
      queue.tokenAt.delete(waitFor);
      if (tokened) queue.tokened--;
      connected();
    }
    if (opened.kind !== 'open') roomChanged(queue, waitFor, undefined);
    if (opened.kind === 'throttled') {
      // No token in time for any probe that waited when it asked: they are answered, unless a
      // session of their place is connected or has its token (it takes them, or their own
      // timers answer them). Probes that came later, with more time, get another try.
      if (queue.connected === 0 && queue.tokened === 0) {
        for (const probe of waiting) probe.settle(opened);
        queue.waiting = open(queue);
        return 'again';
      }
      return 'stop';
    }
    // Our way out failed: the probes wait for a session through another egress while one is left.
    if (opened.kind === 'egress-failed' && options.pool && options.pool.usable(target.host).length > 0) return 'again';
    if (opened.kind !== 'open') {
      // The probes this connection was for: those its first round would have taken.
      for (const probe of claim(queue, holdUntil, budget, true)) probe.settle(opened);
      return 'again';
    }
    const { session, address } = opened;
    queue.connected++;
    const catchAllAsked: CatchAllAsked = new Map();
    let round = claim(queue, holdUntil, budget, true);
    let first = true;
    let servedRealTime = false;
    try {
      // Connected after the probes it was for were answered (their deadline): the next ones may come.
      if (round.length === 0) {
        await idle(queue, realTimeIdleMs);
        if (session.usable) round = claim(queue, holdUntil, budget, true);
      }
      while (round.length > 0) {
        budget -= round.reduce((sum, probe) => sum + probe.recipients.length, 0);
        roomChanged(queue, waitFor, budget);
        servedRealTime ||= round.some((probe) => probe.lane === 'real-time');
        if (!(await askRound(roundDeps, { session, address, target, egress, first, holdUntil, limits, catchAllAsked }, round))) break;
        first = false;
        round = [];
        if (!session.usable || budget <= 0) break;
        // The probes just answered make their callers' next probes within a few promise turns:
        // one turn of the event loop lets them all arrive, so the next round carries them all
        // (meanwhile they start no session of their own: this one takes them).
        round = await claimNextTurn(queue, holdUntil, budget);
        if (round.length > 0) continue;
        await idle(queue, servedRealTime ? realTimeIdleMs : idleMs);
        if (session.usable) round = await claimNextTurn(queue, holdUntil, budget);
      }
    } finally {
      queue.connected--;
      // Probes taken but not asked (the session broke or ended first) wait for another session.
      unclaim(queue, round);
      roomChanged(queue, waitFor, undefined);
      // Nothing connected now: those only a token too late could serve are answered.
      noTokenInTime(queue, reserveMs);
    }
    await session.end();
    return 'again';
  }

  /** What is waiting at the next turn of the event loop; a probe arriving meanwhile waits for it. */
  async function claimNextTurn(queue: HostQueue, holdUntil: number, budget: number): Promise<Probe[]> {
    queue.takingNext++;
    let taken: Probe[];
    try {
      await nextTurn();
      taken = claim(queue, holdUntil, budget, false);
    } finally {
      queue.takingNext--;
    }
    // More came than this session takes: another session for them, as their arrival would have started.
    if (open(queue).length > 0 && needsSession(queue)) void runSession(queue);
    return taken;
  }
}
