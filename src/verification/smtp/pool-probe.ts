/**
 * The session pool's probes and queues (batch-prober.ts): what a waiting probe carries, what one
 * host's queue holds, and the small functions over them (their answers at a deadline, their own
 * replies out of a shared transaction, the limits a place gets, a round's transactions, taking
 * waiting probes and giving back those not asked, a session's idle wait).
 */
import type { ProbeFailure } from './open-on-host.js';
import type { Decisive, ProbeOutcome, ProbeRecord, ProbeTarget, SessionSeen } from './prober.js';
import { pickRound, type Lane } from './session-queue.js';
import type { RecipientReply } from './smtp-session.js';
import type { SessionLimits } from './batch-prober-options.js';

export interface Probe {
  target: ProbeTarget;
  lane: Lane;
  recipients: readonly string[];
  /** Its catch-all probe (random local part), if it carries one. */
  catchAllProbe?: string;
  /** Where its catch-all probe's reply is read when another probe of the session asked it. */
  catchAllFrom?: { replies: Map<string, RecipientReply>; recipient: string };
  deadline: number;
  minLeftMs: number;
  /** The API key it is for (the per-key share of a round). */
  key?: number;
  /** A reply it accepts answers the probe at once, without the rest of its transaction (prober.ts). */
  decisive?: Decisive;
  /** Told, when it is answered, what it saw of its session (a verdict's evidence). */
  record?: (record: ProbeRecord) => void;
  /** Its session and where its part of the transcript starts, once asked. */
  seen?: SessionSeen;
  /** The replies of the transaction it is in, once sent (for partial answers at its deadline). */
  asked?: Map<string, RecipientReply>;
  claimed: boolean;
  done: boolean;
  /** Its last moment to wait for a new connection, when the provider's budget is what sessions wait for. */
  giveUpAt?: number;
  settle(outcome: ProbeOutcome): void;
}

export interface HostQueue {
  key: string;
  /** The limiter's key (the host, or the provider's addresses its customers' MX names share). */
  place: string;
  /** This host's limits. */
  limits: SessionLimits;
  waiting: Probe[];
  /** Sessions of this process for the queue: waiting for a slot, open, or about to close. */
  sessions: number;
  /** Sessions waiting for work: woken by the next probe. */
  idle: Set<() => void>;
  /** Sessions about to take what waits at the next turn (between two rounds). */
  takingNext: number;
  /** Sessions waiting for their connection (slot, budget token, connect). */
  connecting: number;
  /** Sessions connected (they take what waits at their next round). */
  connected: number;
  /** Sessions that have their budget token and are connecting. */
  tokened: number;
  /** Sessions of the queue per egress label (each egress has its own sessions per host). */
  byEgress: Map<string, number>;
  /** Connecting sessions waiting for a budget token: the earliest moment each could get one. */
  tokenAt: Map<object, number>;
  /**
   * The RCPTs left to each session that has its token or is connected: a probe past its last
   * moment to connect waits only for a session with room for it.
   */
  rooms: Map<object, number>;
}

/** `over` the `base` limits, checked: every number a positive integer. */
export function sessionLimits(base: SessionLimits, over: Partial<SessionLimits>): SessionLimits {
  const limits: SessionLimits = {
    maxSessionsPerHost: over.maxSessionsPerHost ?? base.maxSessionsPerHost,
    rcptsPerSession: over.rcptsPerSession ?? base.rcptsPerSession,
    rcptsPerTransaction: over.rcptsPerTransaction ?? base.rcptsPerTransaction,
    transactionPerDomain: over.transactionPerDomain ?? base.transactionPerDomain,
  };
  for (const [name, value] of Object.entries(limits)) {
    if (typeof value === 'number' && !(Number.isInteger(value) && value >= 1))
      throw new RangeError(`${name} must be a positive integer, got ${value}`);
  }
  return limits;
}

export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function open(queue: HostQueue): Probe[] {
  return queue.waiting.filter((probe) => !probe.done);
}

export function latestDeadline(probes: readonly Probe[]): number {
  return probes.reduce((latest, probe) => Math.max(latest, probe.deadline), 0);
}

export function timedOut(probe: Probe): ProbeOutcome {
  if (!probe.claimed) return { kind: 'timeout', detail: 'no free session slot before the deadline' };
  const partial = ownReplies(probe);
  return { kind: 'timeout', detail: 'deadline reached', ...(partial.size > 0 ? { partial } : {}) };
}

export function withOwnPartial(failed: ProbeFailure, probe: Probe): ProbeFailure {
  const { partial: _all, ...rest } = failed;
  const partial = ownReplies(probe);
  return partial.size > 0 ? { ...rest, partial } : rest;
}

export function ownReplies(probe: Probe): Map<string, RecipientReply> {
  const own = new Map<string, RecipientReply>();
  for (const recipient of probe.recipients) {
    const from = recipient === probe.catchAllProbe ? probe.catchAllFrom : undefined;
    const reply = from ? from.replies.get(from.recipient) : probe.asked?.get(recipient);
    if (reply) own.set(recipient, reply);
  }
  return own;
}

/**
 * A transaction's reply map that answers each of `group`'s probes as soon as one of its own
 * replies is decisive for it: a tarpit holding the next RCPT (another call's, or the catch-all
 * probe) never keeps an unknown user's 550 waiting.
 */
export function repliesAnsweringDecisive(group: readonly Probe[], answer: (probe: Probe) => void): Map<string, RecipientReply> {
  const watching = group.filter((probe) => probe.decisive !== undefined);
  if (watching.length === 0) return new Map();
  return new (class extends Map<string, RecipientReply> {
    override set(recipient: string, reply: RecipientReply): this {
      super.set(recipient, reply);
      for (const probe of watching) {
        if (!probe.done && probe.recipients.includes(recipient) && recipient !== probe.catchAllProbe && probe.decisive!(recipient, reply))
          answer(probe);
      }
      return this;
    }
  })();
}

/** A round's probes in transactions: one per domain where the limits say so, else one. */
export function transactions(round: Probe[], limits: SessionLimits): Probe[][] {
  if (!limits.transactionPerDomain) return [round];
  const byDomain = new Map<string, Probe[]>();
  for (const probe of round) {
    const first = probe.recipients[0] ?? '';
    const domain = first.slice(first.lastIndexOf('@') + 1).toLowerCase();
    const group = byDomain.get(domain);
    if (group) group.push(probe);
    else byDomain.set(domain, [probe]);
  }
  return [...byDomain.values()];
}

/**
 * Waiting probes this session may take: in arrival order, as many as its RCPTs left allow
 * (a fresh session takes at least one, however many recipients it has), and only those whose
 * deadline falls before the session's slot runs out.
 */
export function claim(queue: HostQueue, holdUntil: number, budget: number, fresh: boolean): Probe[] {
  // (A probe whose deadline lies past any session's life, which no caller makes, still gets
  // a fresh session: its answer then comes by the session's end at the latest.)
  const { taken, kept } = pickRound(queue.waiting, budget, holdUntil, fresh, Date.now());
  for (const probe of taken) probe.claimed = true;
  queue.waiting = kept;
  return taken;
}

/** Probes a session took but did not ask go back to the front of the queue. */
export function unclaim(queue: HostQueue, probes: Probe[]): void {
  const back = probes.filter((probe) => !probe.done);
  for (const probe of back) probe.claimed = false;
  if (back.length > 0) queue.waiting.unshift(...back);
}

/** Until a probe arrives for the queue, or `ms` pass. */
export function idle(queue: HostQueue, ms: number): Promise<void> {
  if (open(queue).length > 0) return Promise.resolve();
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      queue.idle.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    timer.unref();
    queue.idle.add(wake);
  });
}
