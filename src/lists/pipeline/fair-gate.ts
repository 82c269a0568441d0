/**
 * The chunk slots of one process, shared fairly between keys: a chunk starts only with a slot,
 * at most `total` are out at once and at most `perKey` to one key, and a freed slot goes to the
 * keys that wait in turn (round-robin), never to the key with the longest backlog. So one key's
 * sixteen big lists take at most `perKey` slots, and another key's small list starts its chunk at
 * once when `perKey` < `total`, or at the next chunk to end otherwise. While several keys hold or
 * wait for slots, none is given more than its even share of `total` (rounded up): the backlog's
 * chunks that end are not replaced until the newcomer holds as many as it asks, up to its share.
 *
 * A chunk that only waits for rows held back for a throttling provider (hold-back.ts) gives its
 * slot back meanwhile and takes it again, at once, when it asks them again: a key over its cap
 * for that moment is the price of never holding slots idle for minutes.
 */
export interface ChunkSlot {
  /** The chunk waits for held-back rows (true) or works again (false). */
  holding(waiting: boolean): void;
  release(): void;
}

export interface FairGate {
  acquire(keyId: number): Promise<ChunkSlot>;
  /** Slots out now, per key (tests, metrics). */
  inUse(keyId: number): number;
}

interface KeyLane {
  out: number;
  waiters: (() => void)[];
  inTurn: boolean;
}

export function createFairGate(options: { total: number; perKey: number }): FairGate {
  const { total } = options;
  const perKey = Math.min(options.perKey, total);
  if (!(total >= 1 && perKey >= 1)) throw new RangeError('total and perKey must be at least 1');
  const lanes = new Map<number, KeyLane>();
  /** Keys with a waiter and room under their cap, in turn order. */
  let turn: number[] = [];
  let out = 0;

  const lane = (keyId: number): KeyLane => {
    let l = lanes.get(keyId);
    if (!l) lanes.set(keyId, (l = { out: 0, waiters: [], inTurn: false }));
    return l;
  };
  /**
   * A key's cap now: `perKey`, and while other keys hold or wait for slots too, no more than its
   * even share of the total (rounded up), so a key that arrives behind a backlog gets half the
   * slots as the backlog's chunks end, not the two `perKey` left it.
   */
  const cap = () => Math.min(perKey, Math.max(1, Math.ceil(total / lanes.size)));
  const enterTurn = (keyId: number, l: KeyLane) => {
    if (l.inTurn || l.waiters.length === 0 || l.out >= cap()) return;
    l.inTurn = true;
    turn.push(keyId);
  };
  const forget = (keyId: number, l: KeyLane) => {
    if (l.out === 0 && l.waiters.length === 0) lanes.delete(keyId);
  };

  const pump = () => {
    while (out < total && turn.length > 0) {
      const keyId = turn.shift()!;
      const l = lanes.get(keyId)!;
      l.inTurn = false;
      if (l.out >= cap() || l.waiters.length === 0) continue;
      l.out += 1;
      out += 1;
      l.waiters.shift()!();
      // Behind every other waiting key: one slot per key per turn.
      enterTurn(keyId, l);
    }
    if (turn.length === 0) turn = [];
  };

  const give = (keyId: number) => {
    const l = lanes.get(keyId)!;
    l.out -= 1;
    out -= 1;
    forget(keyId, l);
    // This key may be under its cap again, and a key gone raises the others' caps.
    for (const [id, other] of lanes) enterTurn(id, other);
    pump();
  };
  const take = (keyId: number) => {
    lane(keyId).out += 1;
    out += 1;
  };

  const slot = (keyId: number): ChunkSlot => {
    let held = false;
    let released = false;
    return {
      holding(waiting) {
        if (released || waiting === held) return;
        held = waiting;
        if (waiting) give(keyId);
        else take(keyId);
      },
      release() {
        if (released) return;
        released = true;
        if (!held) give(keyId);
      },
    };
  };

  return {
    acquire(keyId) {
      const l = lane(keyId);
      return new Promise<ChunkSlot>((resolve) => {
        l.waiters.push(() => resolve(slot(keyId)));
        enterTurn(keyId, l);
        pump();
      });
    },
    inUse: (keyId) => lanes.get(keyId)?.out ?? 0,
  };
}
