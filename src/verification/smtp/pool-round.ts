/**
 * One round of a pooled SMTP session (batch-prober.ts): the probes it took, asked a transaction
 * per domain (or one for all), each answered as its transaction's replies are read; a domain's
 * catch-all probe sent once per session and read by the others; a broken transaction's probes
 * given its failure.
 */
import type { SmtpEgress } from './egress.js';
import { observeRefusals, probeFailure } from './open-on-host.js';
import type { SessionLimits } from './batch-prober-options.js';
import { ownReplies, repliesAnsweringDecisive, transactions, withOwnPartial, latestDeadline, type Probe } from './pool-probe.js';
import type { ProbeObserver, ProbeTarget } from './prober.js';
import { domainOf, sharedCatchAll } from './session-queue.js';
import { sessionFailure, type RecipientReply, type SmtpSession } from './smtp-session.js';
import { slowDownIfAsked, type Throttle } from './throttle.js';

/** What a round reports to and slows down by: the pool's observer and throttle. */
export interface RoundDeps {
  observer: ProbeObserver | undefined;
  throttle: Throttle | undefined;
  /** The observer of one egress (the pool's breaker), if any. */
  observerFor(egress: SmtpEgress): ProbeObserver | undefined;
}

/** The catch-all probe a session already sent for a domain: where its reply is read, and to whom it went. */
export type CatchAllAsked = Map<string, { replies: Map<string, RecipientReply>; recipient: string }>;

/** The session a round is asked on, and what holds for the whole session. */
export interface RoundSession {
  session: SmtpSession;
  /** The MX address the session is connected to. */
  address: string;
  target: ProbeTarget;
  egress: SmtpEgress;
  /** The session's first round: a refusal of the greeting is its probes' answer. */
  first: boolean;
  holdUntil: number;
  limits: SessionLimits;
  catchAllAsked: CatchAllAsked;
}

/**
 * The round's probes, a transaction per domain (or one for all), all written at once where the
 * server pipelines, each probe answered as its transaction's replies are read. False when the
 * session is over before the round is: the probes of the transaction that broke have their
 * failure, the rest are left unanswered in `round`.
 */
export async function askRound(deps: RoundDeps, at: RoundSession, round: Probe[]): Promise<boolean> {
  const { session, address, target, egress, first, holdUntil, limits, catchAllAsked } = at;
  const groups = transactions(
    round.filter((probe) => !probe.done),
    limits,
  );
  if (groups.length === 0) return true;
  // A session refused or closed after its first round says nothing to the probes that were
  // not in it: they get a session of their own. (The first round gets the refusal of the
  // greeting, as a probe alone would.)
  if (!first && !session.usable) return false;
  const replies = groups.map((group) =>
    // The session goes on for the others (and the catch-all probe's reply, which later rounds read).
    repliesAnsweringDecisive(group, (probe) =>
      probe.settle({ kind: 'replies', replies: ownReplies(probe), tls: session.tls, smtputf8: session.smtputf8, address }),
    ),
  );
  groups.forEach((group, index) => group.forEach((probe) => (probe.asked = replies[index])));
  // A domain's catch-all probe is asked once per session: the first probe carrying one sends
  // it, the others (this round's and later rounds') read its reply.
  const sends = groups.map((group, index) => {
    const { send, askedNow } = sharedCatchAll(group, new Set(catchAllAsked.keys()));
    for (const [domain, recipient] of askedNow) catchAllAsked.set(domain, { replies: replies[index]!, recipient });
    for (const probe of group) {
      if (probe.catchAllProbe === undefined) continue;
      const from = catchAllAsked.get(domainOf(probe.catchAllProbe));
      if (from && from.recipient !== probe.catchAllProbe) probe.catchAllFrom = from;
    }
    return send.flat();
  });
  // Where this round's part of the transcript starts: each probe's record reads from here on.
  const from = session.transcript?.mark() ?? 0;
  for (const probe of groups.flat())
    probe.seen = { session, address, from, egress, ...(probe.catchAllFrom ? { catchAllFrom: probe.catchAllFrom.recipient } : {}) };
  session.setDeadline(Math.min(holdUntil, latestDeadline(groups.flat())));
  const answered = new Set<number>();
  const settle = (index: number) => {
    // Replies on a session opened earlier prove the way out works now, as a new connection
    // would: the egress breaker counts failures only since the last such proof, and a long
    // session's probes would otherwise leave other hosts' failures unanswered.
    if (answered.size === 0 && !first) deps.observerFor(egress)?.connection(target.host, address, true, 'connected');
    answered.add(index);
    observeRefusals(deps.observer, target.host, replies[index]!.values());
    void slowDownIfAsked(deps.throttle, target.host, egress, replies[index]!.values());
    for (const probe of groups[index]!)
      probe.settle({ kind: 'replies', replies: ownReplies(probe), tls: session.tls, smtputf8: session.smtputf8, address });
  };
  try {
    await session.askAll(sends, replies, settle, limits.rcptsPerTransaction);
  } catch (error) {
    session.close();
    const broken = groups.findIndex((_, index) => !answered.has(index));
    if (broken >= 0) {
      const failed = probeFailure(sessionFailure(error, replies[broken]!));
      await slowDownIfAsked(deps.throttle, target.host, egress, [...(failed.reply ? [failed.reply] : []), ...replies[broken]!.values()]);
      for (const probe of groups[broken]!) probe.settle(withOwnPartial(failed, probe));
    }
    return false;
  }
  return answered.size === groups.length;
}
