/**
 * The session pool's decisions, apart from its sockets and timers (batch-prober.ts): which waiting
 * probes a session takes into its next round, and until when a probe may wait for a connection.
 *
 * Real-time calls and lists share one pool per session place. A round takes real-time probes
 * first (a list at full speed never keeps a call waiting behind its rows), each lane in arrival
 * order with the keys waiting in it taking turns (byKeyInTurn), as many as the session's RCPTs
 * left allow. A probe waits for a new connection (a slot,
 * a token of the provider's budget) only while the time left after it would still carry a
 * session to its RCPT: `reserveMs` before its deadline it stops waiting and answers at once
 * (throttled: unknown), rather than taking a token it cannot use or timing out in a queue.
 */

/** Real-time calls go ahead of list rows in every session of their place. */
export type Lane = 'real-time' | 'list';

export interface Waiting {
  lane: Lane;
  recipients: readonly string[];
  /** Absolute deadline (ms). */
  deadline: number;
  /** Answered already (its deadline, or a single flight's leader): never taken. */
  done: boolean;
  /** The least time it must have left to be asked (time for its round's replies; default 0). */
  minLeftMs?: number;
  /** The API key it is for: within a lane, a round takes keys in turn (the per-key share). */
  key?: number;
}

/**
 * The probes a session takes for its next round, and those left waiting (in their order).
 * `room`: the RCPTs it may still send; `fresh`: its first round, which takes at least one probe
 * however many recipients it has. Only probes whose deadline falls before `holdUntil` (the
 * session's end) are taken, except a fresh session's first; and none with less than its
 * `minLeftMs` left at `now` (replies it could not wait for: it stays, and its deadline answers it).
 */
export function pickRound<P extends Waiting>(
  waiting: readonly P[],
  room: number,
  holdUntil: number,
  fresh: boolean,
  now = -Infinity,
): { taken: P[]; kept: P[] } {
  const taken: P[] = [];
  const kept: P[] = [];
  let left = room;
  const ordered = [
    ...byKeyInTurn(waiting.filter((probe) => probe.lane === 'real-time' && !probe.done)),
    ...byKeyInTurn(waiting.filter((probe) => probe.lane !== 'real-time' && !probe.done)),
  ];
  for (const probe of ordered) {
    if (probe.done) continue;
    if (probe.deadline - (probe.minLeftMs ?? 0) < now) {
      kept.push(probe);
      continue;
    }
    const alone = fresh && taken.length === 0;
    if ((probe.recipients.length <= left || alone) && (probe.deadline <= holdUntil || alone)) {
      taken.push(probe);
      left -= probe.recipients.length;
    } else kept.push(probe);
  }
  // What waits keeps its arrival order (the lanes are re-ordered only when a round is taken).
  const order = new Map(waiting.map((probe, index) => [probe, index]));
  kept.sort((a, b) => order.get(a)! - order.get(b)!);
  return { taken, kept };
}

/**
 * The per-key share: one probe of each waiting key in turn, each key's in arrival order, so that
 * while several keys wait no key takes more than an equal share of a round's RCPTs (and so of
 * the connections, the provider's budget, that carry them); a key alone takes all of it.
 */
export function byKeyInTurn<P extends Pick<Waiting, 'key'>>(probes: readonly P[]): P[] {
  const turns = new Map<number | undefined, number>();
  return probes
    .map((probe, index) => {
      const turn = turns.get(probe.key) ?? 0;
      turns.set(probe.key, turn + 1);
      return { probe, turn, index };
    })
    .sort((a, b) => a.turn - b.turn || a.index - b.index)
    .map(({ probe }) => probe);
}

/** The least time a probe must have left to be asked: half the reserve, or a quarter of its whole time when that is shorter. */
export function minLeft(timeMs: number, reserveMs: number): number {
  return Math.max(0, Math.min(reserveMs / 2, timeMs / 4));
}

/** The last moment a probe may still wait for a new connection of its own (slot, token, connect). */
export function connectBy(deadline: number, reserveMs: number): number {
  return deadline - reserveMs;
}

/** How long to wait for a connection serving `probes`: until the latest of their `connectBy`. */
export function connectDeadline(probes: readonly Pick<Waiting, 'deadline'>[], reserveMs: number): number {
  return probes.reduce((latest, probe) => Math.max(latest, connectBy(probe.deadline, reserveMs)), -Infinity);
}

/**
 * The recipients a round sends for each probe: a probe's catch-all probe (its random local part)
 * only when no earlier probe of the session asked one for that domain; the others read that one's
 * reply. Returns, per probe, the recipients to send, and the domain each catch-all probe stands for.
 */
export function sharedCatchAll(
  probes: readonly { recipients: readonly string[]; catchAllProbe?: string }[],
  askedBefore: ReadonlySet<string>,
): { send: string[][]; askedNow: Map<string, string> } {
  const askedNow = new Map<string, string>();
  const send = probes.map((probe) => {
    const random = probe.catchAllProbe;
    if (random === undefined || !probe.recipients.includes(random)) return [...probe.recipients];
    const domain = domainOf(random);
    if (askedBefore.has(domain) || askedNow.has(domain)) return probe.recipients.filter((recipient) => recipient !== random);
    askedNow.set(domain, random);
    return [...probe.recipients];
  });
  return { send, askedNow };
}

export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}
