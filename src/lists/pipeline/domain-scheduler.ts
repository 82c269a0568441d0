/**
 * Runs verification tasks for a list with a global concurrency and a per-domain cap, taking the
 * domains in turn: a slow or tarpitting MX host holds at most `perDomain` slots while every
 * other domain keeps moving, so one domain never stalls a list. (The SMTP prober's per-host
 * connection limit still applies underneath, across every list and the real-time route.)
 *
 * A list sends a million tasks through here, most of them answered from caches within a few
 * microtasks, so the bookkeeping is kept small: `runEach` takes a chunk's tasks at once and
 * answers one promise for all of them (a promise per waiting task cost more than most
 * verifications), a domain is a counter and a queue, and only domains that can start a task wait
 * in the turn (a domain at its cap rejoins it when one of its tasks ends).
 *
 * Within a domain, tasks wait in lanes (a list's key): the domain's next slot goes to the lane
 * whose key has had the least service lately (tasks started, halved every `DECAY_EVERY` starts),
 * the lanes in turn among equals. So a key that arrives behind another's backlog goes first until
 * it has had as much: its small list moves at nearly its idle speed instead of half of it, and two
 * keys that both keep the scheduler busy share it evenly (issue 31). With one lane, as with one
 * list, this is the plain queue it was.
 */
export interface DomainScheduler {
  run<T>(domain: string, task: () => Promise<T>): Promise<T>;
  /**
   * `work(item)` for every item, each scheduled under `domainOf(item)`; the results in item
   * order, or the first failure (the items not started by then are dropped).
   */
  runEach<I, T>(items: readonly I[], domainOf: (item: I) => string, work: (item: I) => Promise<T>, lane?: number): Promise<T[]>;
  /** Tasks running now. */
  readonly active: number;
}

interface Batch {
  lane: number;
  items: readonly unknown[];
  work: (item: unknown) => Promise<unknown>;
  results: unknown[];
  left: number;
  failed: boolean;
  resolve: (results: unknown[]) => void;
  reject: (error: unknown) => void;
}

interface Waiting {
  batch: Batch;
  index: number;
}

interface Lane {
  id: number;
  waiting: Waiting[];
  /** Index of the next waiting task: shifting an array is linear, this is not. */
  next: number;
}

interface Domain {
  name: string;
  running: number;
  /** Lanes with a waiting task, in turn order (the first goes next). */
  lanes: Lane[];
  laneOf: Map<number, Lane>;
  inTurn: boolean;
}

/** Longest stretch of one turn of the event loop spent starting tasks (and running the ones answered at once). */
const SLICE_MS = 1;
/**
 * Fewest tasks started in one turn of the event loop (the most: the concurrency). A task answered
 * from caches runs to its end in the microtasks after the one that started it, so a turn's length
 * is about what its starts cost, and the clock read between starts does not see it: 64 started
 * within a millisecond made a turn of several. Every other callback of the process waits for the
 * turn to end (another key's upload, its list's file reads and database writes, the status polls),
 * so a turn is kept short: behind one key's sixteen big lists, another key's small list took twice
 * its idle time with turns of about 5 ms, and its idle time with turns of about 1 ms (issue 31,
 * bench/list-fairness.bench.ts). Tasks that wait on the network (SMTP probes) cost little to start,
 * and the prober shares a session among the probes that reach it in one turn (with 8 a turn, a
 * 5,000-address list over 10 MX hosts took 190 sessions instead of 120, and a third longer): the
 * number is doubled after a turn that started all it could within SLICE_MS, and halved (down to
 * this) after a turn that took longer.
 */
export const STARTS_PER_TURN = 8;
/**
 * Every so many task starts, each lane's service is halved (and a lane's under one forgotten): the
 * service that orders lanes is the recent one, so a key's backlog of an hour ago does not put it
 * behind forever, and the table holds only keys seen lately.
 */
export const DECAY_EVERY = 20_000;

export function createDomainScheduler(options: { concurrency: number; perDomain: number }): DomainScheduler {
  const { concurrency, perDomain } = options;
  if (!(concurrency >= 1 && perDomain >= 1)) throw new RangeError('concurrency and perDomain must be at least 1');
  const domains = new Map<string, Domain>();
  /** Domains with a waiting task and a free slot, in turn order (from `head` on). */
  let turn: Domain[] = [];
  let head = 0;
  let active = 0;
  /** Tasks started per lane lately (see DECAY_EVERY). */
  const served = new Map<number, number>();
  let startsSinceDecay = 0;
  const serve = (lane: number) => {
    served.set(lane, (served.get(lane) ?? 0) + 1);
    if (++startsSinceDecay < DECAY_EVERY) return;
    startsSinceDecay = 0;
    for (const [id, n] of served) {
      if (n < 2) served.delete(id);
      else served.set(id, n / 2);
    }
  };

  const hasWaiting = (d: Domain) => d.lanes.length > 0;

  const push = (d: Domain, lane: number, waiting: Waiting) => {
    let l = d.laneOf.get(lane);
    if (!l) {
      l = { id: lane, waiting: [], next: 0 };
      d.laneOf.set(lane, l);
      d.lanes.push(l);
    }
    l.waiting.push(waiting);
  };

  /** The lane that goes next: the least served lately, the first in turn among equals. */
  const nextLane = (d: Domain): number => {
    let best = 0;
    let least = served.get(d.lanes[0]!.id) ?? 0;
    for (let i = 1; i < d.lanes.length; i++) {
      const n = served.get(d.lanes[i]!.id) ?? 0;
      if (n < least) [best, least] = [i, n];
    }
    return best;
  };

  /** The next waiting task of the domain's lane that goes next (nextLane); that lane then goes to the back. */
  const take = (d: Domain): Waiting => {
    const at = d.lanes.length > 1 ? nextLane(d) : 0;
    const l = d.lanes[at]!;
    const waiting = l.waiting[l.next]!;
    l.waiting[l.next++] = undefined as unknown as Waiting;
    if (l.next === l.waiting.length) {
      d.lanes.splice(at, 1);
      d.laneOf.delete(l.id);
    } else if (d.lanes.length > 1) d.lanes.push(d.lanes.splice(at, 1)[0]!);
    return waiting;
  };

  const enterTurn = (d: Domain) => {
    if (d.inTurn || !hasWaiting(d) || d.running >= perDomain) return;
    d.inTurn = true;
    turn.push(d);
  };

  const release = (d: Domain) => {
    active -= 1;
    d.running -= 1;
    if (d.running === 0 && !hasWaiting(d)) domains.delete(d.name);
    else enterTurn(d);
    pump();
  };

  const start = (d: Domain, batch: Batch, index: number) => {
    active += 1;
    d.running += 1;
    serve(batch.lane);
    let running: Promise<unknown>;
    try {
      running = batch.work(batch.items[index]);
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(
      (value) => {
        batch.results[index] = value;
        if (--batch.left === 0 && !batch.failed) batch.resolve(batch.results);
        release(d);
      },
      (error: unknown) => {
        if (!batch.failed) {
          batch.failed = true;
          batch.reject(error);
        }
        release(d);
      },
    );
  };

  // Tasks answered from caches finish within microtasks, and each one's end starts the next:
  // left alone, a chunk's worth of them runs as one long turn of the event loop, and everything
  // else waits for it: a task waiting on the network (a DNS answer; a domain whose every lookup
  // waits, SERVFAIL being never cached, then moves at perDomain answers per such turn and holds
  // up the whole list), and the rest of the process (another key's list, the API). So a turn
  // starts at most `perTurn` tasks (STARTS_PER_TURN or more) and stops starting once SLICE_MS has
  // passed since its first start, the ends of the tasks it started included; the rest wait for the
  // next turn (a setImmediate, which also marks where the turn ends and what it cost).
  let sliceStarted = 0;
  let startsInSlice = 0;
  let sliceOpen = false;
  let yielding = false;
  let perTurn = STARTS_PER_TURN;
  const closeSlice = () => {
    const spent = performance.now() - sliceStarted;
    if (spent > SLICE_MS) perTurn = Math.max(STARTS_PER_TURN, perTurn >> 1);
    else if (startsInSlice >= perTurn) perTurn = Math.max(STARTS_PER_TURN, Math.min(concurrency, perTurn * 2));
    sliceOpen = false;
    if (yielding) {
      yielding = false;
      pump();
    }
  };
  const mayStart = () => {
    if (yielding) return false;
    const now = performance.now();
    if (!sliceOpen) {
      sliceOpen = true;
      sliceStarted = now;
      startsInSlice = 0;
      setImmediate(closeSlice);
    }
    if (startsInSlice < perTurn && now - sliceStarted < SLICE_MS) {
      startsInSlice += 1;
      return true;
    }
    yielding = true;
    return false;
  };

  const pump = () => {
    while (active < concurrency && head < turn.length && mayStart()) {
      const d = turn[head++]!;
      d.inTurn = false;
      const { batch, index } = take(d);
      if (!batch.failed) start(d, batch, index);
      else if (d.running === 0 && !hasWaiting(d)) domains.delete(d.name);
      enterTurn(d);
    }
    if (head === turn.length) {
      turn = [];
      head = 0;
    } else if (head > 1024 && head * 2 > turn.length) {
      turn = turn.slice(head);
      head = 0;
    }
  };

  const runEach = <I, T>(items: readonly I[], domainOf: (item: I) => string, work: (item: I) => Promise<T>, lane = 0): Promise<T[]> =>
    new Promise<T[]>((resolve, reject) => {
      if (items.length === 0) return resolve([]);
      const batch: Batch = {
        lane,
        items,
        work: work as (item: unknown) => Promise<unknown>,
        results: new Array<unknown>(items.length),
        left: items.length,
        failed: false,
        resolve: resolve as (results: unknown[]) => void,
        reject,
      };
      for (let index = 0; index < items.length && !batch.failed; index++) {
        const name = domainOf(items[index]!);
        let d = domains.get(name);
        if (!d) {
          d = { name, running: 0, lanes: [], laneOf: new Map(), inTurn: false };
          domains.set(name, d);
        }
        // Free slots mean no domain waits in turn (each release pumps), so nothing is overtaken;
        // past this turn's starts (mayStart) the rest wait in turn like any other.
        if (active < concurrency && d.running < perDomain && !hasWaiting(d) && mayStart()) start(d, batch, index);
        else {
          push(d, lane, { batch, index });
          enterTurn(d);
        }
      }
      pump();
    });

  return {
    get active() {
      return active;
    },
    run: <T>(domain: string, task: () => Promise<T>) =>
      runEach(
        [task],
        () => domain,
        (t) => t(),
      ).then((results) => results[0]!),
    runEach,
  };
}
