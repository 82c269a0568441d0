import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paceFor, worstInterval } from './budget-pace.js';

describe('paceFor', () => {
  it('paces every profile figure as one connection at a time, exactly the budget a minute', () => {
    expect(paceFor(10, 60)).toEqual({ points: 1, seconds: 6 });
    expect(paceFor(20, 60)).toEqual({ points: 1, seconds: 3 });
    expect(paceFor(30, 60)).toEqual({ points: 1, seconds: 2 });
    expect(paceFor(1, 60)).toEqual({ points: 1, seconds: 60 });
  });

  it('over one connection a second, takes a few at a time without passing the budget', () => {
    // 100 a minute: three every two seconds (90 a minute; 92 at worst in one minute).
    expect(paceFor(100, 60)).toEqual({ points: 3, seconds: 2 });
    expect(worstInterval(paceFor(100, 60), 60)).toBe(92);
  });

  it('never lets more than the budget into an interval, nor goes faster than the budget, and no pace that keeps the bound is faster', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 120 }), (perWindow, windowSeconds) => {
        const pace = paceFor(perWindow, windowSeconds);
        expect(Number.isInteger(pace.points) && pace.points >= 1).toBe(true);
        expect(Number.isInteger(pace.seconds) && pace.seconds >= 1).toBe(true);
        expect(worstInterval(pace, windowSeconds)).toBeLessThanOrEqual(perWindow);
        expect(pace.points * windowSeconds).toBeLessThanOrEqual(perWindow * pace.seconds);
        if (windowSeconds % perWindow === 0) expect(pace).toEqual({ points: 1, seconds: windowSeconds / perWindow });
        let faster = 0;
        for (let points = 1; points <= perWindow; points++) {
          for (let seconds = 1; seconds <= windowSeconds; seconds++) {
            if (worstInterval({ points, seconds }, windowSeconds) <= perWindow && points * pace.seconds > pace.points * seconds) faster++;
          }
        }
        expect(faster).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});
