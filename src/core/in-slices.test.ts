import { describe, expect, it } from 'vitest';
import { inSlices } from './in-slices.js';

describe('inSlices', () => {
  it('gives the answers of every slice in order, the work seeing each slice once', async () => {
    const seen: number[][] = [];
    const out = await inSlices([1, 2, 3, 4, 5, 6, 7], 3, async (slice) => (seen.push([...slice]), slice.map((n) => n * 10)));
    expect(out).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(seen).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it('lets other work run between slices', async () => {
    const order: string[] = [];
    const done = inSlices([1, 2, 3, 4], 2, async (slice) => (order.push(`slice ${slice[0]}`), [...slice]));
    setImmediate(() => order.push('other'));
    await done;
    expect(order).toEqual(['slice 1', 'other', 'slice 3']);
  });

  it('does the work once, without waiting, for what fits in one slice', async () => {
    let calls = 0;
    expect(await inSlices([], 3, async (s) => (calls++, [...s]))).toEqual([]);
    expect(await inSlices([1, 2, 3], 3, async (s) => (calls++, [...s]))).toEqual([1, 2, 3]);
    expect(calls).toBe(2);
  });

  it('gives concurrent callers a slice each in turn, with other work between turns', async () => {
    const order: string[] = [];
    const a = inSlices([1, 2, 3, 4, 5, 6], 2, async (slice) => (order.push(`a${slice[0]}`), [...slice]));
    const b = inSlices([1, 2, 3, 4], 2, async (slice) => (order.push(`b${slice[0]}`), [...slice]));
    const others = (async () => {
      for (let i = 0; i < 4; i++) {
        await new Promise((r) => setImmediate(r));
        order.push('other');
      }
    })();
    expect(await a).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await b).toEqual([1, 2, 3, 4]);
    await others;
    // Never two slices in one pass of the loop, and the callers alternate.
    expect(order.filter((o) => o !== 'other')).toEqual(['a1', 'b1', 'a3', 'b3', 'a5']);
    for (let i = 1; i < order.length; i++) expect(order[i] !== 'other' && order[i - 1] !== 'other').toBe(false);
  });
});
