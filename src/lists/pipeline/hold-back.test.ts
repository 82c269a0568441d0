import { describe, expect, it } from 'vitest';
import { askWithHoldBack, ListStopped, type HoldBackPolicy } from './hold-back.js';

const QUICK: HoldBackPolicy = { firstWaitMs: 5, longestWaitMs: 20, totalMs: 60_000 };

/** An answerer whose item `i` is throttled for its first `throttledTimes[i]` asks. */
function answerer(throttledTimes: number[]) {
  const asked: number[][] = [];
  const seen = throttledTimes.map(() => 0);
  const ask = async (indexes: readonly number[]) => {
    asked.push([...indexes]);
    return indexes.map((i) => (seen[i]!++ < throttledTimes[i]! ? `throttled ${i}` : `answer ${i}`));
  };
  return { ask, asked };
}

const throttled = (answer: string) => answer.startsWith('throttled');

describe('askWithHoldBack', () => {
  it('asks only the throttled items again, until each has an answer, and keeps item order', async () => {
    const { ask, asked } = answerer([0, 2, 0, 1]);
    expect(await askWithHoldBack(4, ask, throttled, QUICK)).toEqual(['answer 0', 'answer 1', 'answer 2', 'answer 3']);
    expect(asked).toEqual([[0, 1, 2, 3], [1, 3], [1]]);
  });

  it('asks once when nothing is throttled', async () => {
    const { ask, asked } = answerer([0, 0]);
    await askWithHoldBack(2, ask, throttled, QUICK);
    expect(asked).toHaveLength(1);
  });

  it('leaves the throttled answer once the row has been held for the whole time allowed', async () => {
    const { ask, asked } = answerer([Infinity, 0]);
    const answers = await askWithHoldBack(2, ask, throttled, { firstWaitMs: 5, longestWaitMs: 10, totalMs: 60 });
    expect(answers).toEqual(['throttled 0', 'answer 1']);
    // Waits of 5 and 10 ms fit in 60 ms; the row was asked more than once and then left.
    expect(asked.length).toBeGreaterThan(1);
    expect(asked.slice(1).every((a) => a.length === 1 && a[0] === 0)).toBe(true);
  });

  it('does not hold back at all when no time is allowed', async () => {
    const { ask, asked } = answerer([Infinity]);
    expect(await askWithHoldBack(1, ask, throttled, { ...QUICK, totalMs: 0 })).toEqual(['throttled 0']);
    expect(asked).toHaveLength(1);
  });

  it('tells the caller when it only waits, and when it asks again', async () => {
    const { ask } = answerer([1]);
    const told: boolean[] = [];
    await askWithHoldBack(1, ask, throttled, QUICK, { holding: (waiting) => told.push(waiting), stopped: async () => false });
    expect(told).toEqual([true, false]);
  });

  it('ends the wait with ListStopped when the list stops, and asks nothing more', async () => {
    const { ask, asked } = answerer([Infinity]);
    const told: boolean[] = [];
    const waiting = askWithHoldBack(
      1,
      ask,
      throttled,
      { firstWaitMs: 60_000, longestWaitMs: 60_000, totalMs: 3_600_000 },
      {
        holding: (w) => told.push(w),
        stopped: async () => true,
      },
    );
    await expect(waiting).rejects.toBeInstanceOf(ListStopped);
    expect(asked).toHaveLength(1);
    expect(told).toEqual([true, false]);
  });
});
