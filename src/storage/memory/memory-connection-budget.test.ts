/**
 * The in-process budget on a fake clock (vitest's, which rate-limiter-flexible's memory store
 * reads through Date.now() and setTimeout): every moment a token is taken is known exactly, so
 * the smoothness is asserted as it is promised, for any schedule of callers: no interval of the
 * window's length, wherever it starts, holds more than the budget. The same check run over a
 * fixed window of the whole budget (the former store) fails, so it can.
 */
import fc from 'fast-check';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mostInAnyInterval } from '../../../test/helpers/sliding-window.js';
import type { ConnectionBudget } from '../../verification/smtp/connection-budget.js';
import { createMemoryConnectionBudget } from './memory-connection-budget.js';

const key = { provider: 'google', egress: 'direct' };
const T0 = Date.UTC(2026, 10, 27, 12);

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

interface Caller {
  /** When it asks, in ms from the start. */
  at: number;
  /** How long it may wait for a token, in ms. */
  patience: number;
}

/** Runs `callers` against `take` on the fake clock; the moments (ms from the start) tokens were taken. */
async function run(
  take: (deadline: number) => Promise<boolean>,
  callers: readonly Caller[],
  events: { at: number; then: () => Promise<void> }[] = [],
): Promise<number[]> {
  const taken: number[] = [];
  const calls = callers.map(async ({ at, patience }) => {
    await new Promise((resolve) => setTimeout(resolve, at));
    if (await take(Date.now() + patience)) taken.push(Date.now() - T0);
  });
  const others = events.map(async ({ at, then }) => {
    await new Promise((resolve) => setTimeout(resolve, at));
    await then();
  });
  const end = Math.max(0, ...callers.map((c) => c.at + c.patience), ...events.map((e) => e.at));
  await vi.advanceTimersByTimeAsync(end + 1_000);
  await Promise.all([...calls, ...others]);
  return taken;
}

const callers = (windowMs: number) =>
  fc.array(
    fc.record({
      at: fc.integer({ min: 0, max: 3 * windowMs }),
      patience: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2 * windowMs })),
    }),
    { minLength: 1, maxLength: 40 },
  );

describe('the in-process connection budget on a fake clock', () => {
  it('no interval of the window’s length ever holds more than the budget, whoever asks when, slow-downs included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 10 }),
        fc.array(fc.integer({ min: 0, max: 30_000 }), { maxLength: 3 }),
        callers(8_000),
        async (perWindow, windowSeconds, slowDownCost, coolDownSeconds, slowDowns, list) => {
          const budget = createMemoryConnectionBudget({ windowSeconds, slowDownCost, coolDownSeconds });
          const scaled = list.map(({ at, patience }) => ({ at: (at * windowSeconds) / 8, patience: (patience * windowSeconds) / 8 }));
          const taken = await run(
            (deadline) => budget.take(key, perWindow, deadline),
            scaled,
            slowDowns.map((at) => ({ at, then: () => budget.slowDown(key) })),
          );
          expect(mostInAnyInterval(taken, windowSeconds * 1000)).toBeLessThanOrEqual(perWindow);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('the same check fails a fixed window of the whole budget: a window’s last tokens and the next window’s first come together', async () => {
    const fixed = new RateLimiterMemory({ points: 3, duration: 2 });
    const take = (deadline: number) => fixedTake(fixed, deadline);
    // One token opens the window; two more just before it closes; three more as the next opens.
    const taken = await run(take, [{ at: 0, patience: 0 }, ...Array.from({ length: 5 }, () => ({ at: 1_900, patience: 1_000 }))]);
    expect(taken).toHaveLength(6);
    expect(mostInAnyInterval(taken, 2_000)).toBe(5);
  });

  it('the same callers against the smooth budget: one token a window’s third, never a burst', async () => {
    const budget = createMemoryConnectionBudget({ windowSeconds: 3 });
    const taken = await run(
      (deadline) => budget.take(key, 3, deadline),
      [{ at: 0, patience: 0 }, ...Array.from({ length: 5 }, () => ({ at: 1_900, patience: 10_000 }))],
    );
    expect(taken).toHaveLength(6);
    expect(mostInAnyInterval(taken, 3_000)).toBe(3);
    const sorted = [...taken].sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThanOrEqual(1_000);
  });

  it('a caller that always waits gets the whole budget, evenly: 10 a minute is one every 6 s (and 5 ms)', async () => {
    const budget = createMemoryConnectionBudget();
    const taken = await sequentially(budget, 10, 21);
    expect(taken.slice(0, 4)).toEqual([0, 6_005, 12_010, 18_015]);
    expect(taken.filter((at) => at < 60_000)).toHaveLength(10);
    expect(taken.filter((at) => at < 120_000)).toHaveLength(20);
  });

  it('cooling down, a connection costs `slowDownCost`: a quarter of the pace, evenly, until the cool-down ends; then the whole pace again', async () => {
    const budget = createMemoryConnectionBudget({ coolDownSeconds: 120 });
    await budget.slowDown(key);
    // 20 a minute at cost 4: 5 a minute, one every 12 s, for the two minutes of the cool-down.
    const taken = await sequentially(budget, 20, 16);
    const cooling = taken.filter((at) => at < 120_000);
    expect(cooling).toHaveLength(10);
    expect(mostInAnyInterval(cooling, 60_000)).toBe(5);
    for (let i = 1; i < cooling.length; i++) expect(cooling[i]! - cooling[i - 1]!).toBeGreaterThanOrEqual(12_000);
    // After it, one every 3 s again.
    const after = taken.filter((at) => at >= 120_000);
    expect(after.length).toBeGreaterThan(0);
    for (let i = 1; i < after.length; i++) expect(after[i]! - after[i - 1]!).toBeLessThan(3_100);
    expect(mostInAnyInterval(taken, 60_000)).toBeLessThanOrEqual(20);
  });

  it('a cost above the budget is capped: one connection a window still goes', async () => {
    const budget = createMemoryConnectionBudget({ slowDownCost: 10, coolDownSeconds: 600 });
    await budget.slowDown(key);
    const taken = await sequentially(budget, 3, 3);
    expect(taken).toEqual([0, 60_005, 120_010]);
  });
});

/** `count` takes one after the other, each waiting as long as it takes; when each was taken. */
async function sequentially(budget: ConnectionBudget, perWindow: number, count: number): Promise<number[]> {
  const taken: number[] = [];
  const done = (async () => {
    for (let i = 0; i < count; i++) {
      expect(await budget.take(key, perWindow, Number.POSITIVE_INFINITY)).toBe(true);
      taken.push(Date.now() - T0);
    }
  })();
  while (taken.length < count) await vi.advanceTimersByTimeAsync(1_000);
  await done;
  return taken;
}

/** The former store: one fixed window of the whole budget, waiting for the next window within the deadline. */
async function fixedTake(limiter: RateLimiterMemory, deadline: number): Promise<boolean> {
  for (;;) {
    try {
      await limiter.consume('k');
      return true;
    } catch (refusal) {
      const wait = (refusal as { msBeforeNext: number }).msBeforeNext + 5;
      if (Date.now() + wait >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
