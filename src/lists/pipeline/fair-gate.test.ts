import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFairGate, type ChunkSlot } from './fair-gate.js';

/** Lets every settled acquire's continuation run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Acquires for `keyId`, recording the order slots were granted in. */
function asker(gate: ReturnType<typeof createFairGate>, granted: number[]) {
  return (keyId: number): Promise<ChunkSlot> =>
    gate.acquire(keyId).then((slot) => {
      granted.push(keyId);
      return slot;
    });
}

describe('createFairGate', () => {
  it('gives one key at most its cap, so another key gets a slot at once behind its backlog', async () => {
    const gate = createFairGate({ total: 8, perKey: 6 });
    const granted: number[] = [];
    const ask = asker(gate, granted);
    const a = Array.from({ length: 64 }, () => ask(1));
    await settle();
    expect(gate.inUse(1)).toBe(6);
    void ask(2);
    await settle();
    expect(granted.at(-1)).toBe(2);
    expect(gate.inUse(2)).toBe(1);
    // Two keys now: key 1 is over its even share (4 of 8), so its chunks that end are not replaced.
    (await a[0]!).release();
    await settle();
    expect(gate.inUse(1)).toBe(5);
  });

  it('caps a key at its even share while another key holds or waits for slots, and lifts the cap when that key is done', async () => {
    const gate = createFairGate({ total: 8, perKey: 6 });
    const granted: number[] = [];
    const ask = asker(gate, granted);
    const a = Array.from({ length: 64 }, () => ask(1));
    await settle();
    const b = Array.from({ length: 8 }, () => ask(2));
    await settle();
    expect([gate.inUse(1), gate.inUse(2)]).toEqual([6, 2]);
    // Key 1's chunks end one by one: the slots go to key 2 until each holds its half.
    for (let i = 0; i < 2; i++) (await a[i]!).release();
    await settle();
    expect([gate.inUse(1), gate.inUse(2)]).toEqual([4, 4]);
    (await a[2]!).release();
    await settle();
    expect([gate.inUse(1), gate.inUse(2)]).toEqual([4, 4]);
    // Key 2's last chunks end with nothing more to ask: key 1 may hold its full cap again.
    for (const slot of await Promise.all(b.slice(0, 4))) slot.release();
    await settle();
    expect(gate.inUse(2)).toBe(4);
    for (const slot of await Promise.all(b.slice(4))) slot.release();
    await settle();
    expect([gate.inUse(1), gate.inUse(2)]).toEqual([6, 0]);
  });

  it('hands freed slots round-robin to the keys that wait, whatever their backlogs', async () => {
    const gate = createFairGate({ total: 2, perKey: 2 });
    const granted: number[] = [];
    const ask = asker(gate, granted);
    const first = [ask(1), ask(1)];
    for (let i = 0; i < 10; i++) void ask(1);
    void ask(2);
    void ask(3);
    await settle();
    expect(granted).toEqual([1, 1]);
    (await first[0]!).release();
    (await first[1]!).release();
    await settle();
    // Key 1's ten waited first, but keys 2 and 3 had nothing: the freed slots go to them.
    expect(granted.slice(2)).toEqual([2, 3]);
  });

  it('gives the slot back while a chunk holds rows back and takes it again after', async () => {
    const gate = createFairGate({ total: 1, perKey: 1 });
    const granted: number[] = [];
    const ask = asker(gate, granted);
    const held = await ask(1);
    void ask(2);
    await settle();
    expect(granted).toEqual([1]);
    held.holding(true);
    await settle();
    expect(granted).toEqual([1, 2]);
    held.holding(false);
    expect(gate.inUse(1)).toBe(1);
    held.release();
    held.release();
    expect(gate.inUse(1)).toBe(0);
  });

  it('never has more out than its total, nor a key more than its cap, and grants every request', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 40 }),
        async (total, perKey, keys) => {
          const gate = createFairGate({ total, perKey });
          let out = 0;
          let most = 0;
          const perKeyMost = new Map<number, number>();
          await Promise.all(
            keys.map(async (keyId) => {
              const slot = await gate.acquire(keyId);
              out += 1;
              most = Math.max(most, out);
              perKeyMost.set(keyId, Math.max(perKeyMost.get(keyId) ?? 0, gate.inUse(keyId)));
              await settle();
              out -= 1;
              slot.release();
            }),
          );
          expect(most).toBeLessThanOrEqual(total);
          for (const n of perKeyMost.values()) expect(n).toBeLessThanOrEqual(Math.min(perKey, total));
        },
      ),
      { numRuns: 50 },
    );
  });
});
