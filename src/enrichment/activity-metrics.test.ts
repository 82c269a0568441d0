import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { activityWindows, eamFrom, engagementScore, todayUtc, velocityScore } from './activity-metrics.js';

const today = '2026-11-22';
const stats = (over: Partial<Parameters<typeof eamFrom>[0] & object> = {}) => ({
  firstSeen: '2024-01-10',
  events6m: 0,
  sources12m: 0,
  lastOpen12m: null,
  ...over,
});

describe('activity metrics', () => {
  it('gives the default object for an address never seen', () => {
    expect(eamFrom(undefined, today, true)).toEqual({ date_first_seen: 'now', longevity: 0, velocity: 0, popularity: 0 });
    expect(eamFrom(stats({ firstSeen: null }), today, true)).toEqual({ date_first_seen: 'now', longevity: 0, velocity: 0, popularity: 0 });
  });

  it('grades longevity by when the address was first seen', () => {
    expect(eamFrom(stats({ firstSeen: '2026-11-01' }), today, false).longevity).toBe(1);
    expect(eamFrom(stats({ firstSeen: '2026-10-22' }), today, false).longevity).toBe(1);
    expect(eamFrom(stats({ firstSeen: '2026-10-21' }), today, false).longevity).toBe(2);
    expect(eamFrom(stats({ firstSeen: '2025-11-22' }), today, false).longevity).toBe(2);
    expect(eamFrom(stats({ firstSeen: '2025-11-21' }), today, false).longevity).toBe(3);
  });

  it('reports the month of the last open only when asked', () => {
    const s = stats({ lastOpen12m: '2026-09-14', events6m: 3, sources12m: 2 });
    expect(eamFrom(s, today, true)).toEqual({
      date_first_seen: '2024-01-10',
      longevity: 3,
      velocity: 3,
      popularity: 2,
      month_last_open: '2026-09',
    });
    expect(eamFrom(s, today, false)).not.toHaveProperty('month_last_open');
  });

  it('keeps velocity and popularity within 0–10, monotone', () => {
    expect([0, 1, 4, 8, 16, 24, 1000].map(velocityScore)).toEqual([0, 1, 4, 6, 9, 10, 10]);
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(10_000), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(velocityScore(lo)).toBeLessThanOrEqual(velocityScore(hi));
        const v = velocityScore(hi);
        expect(v >= 0 && v <= 10 && Number.isInteger(v)).toBe(true);
      }),
    );
    expect(eamFrom(stats({ sources12m: 57 }), today, false).popularity).toBe(10);
  });

  it('scores engagement only from data, within 0–10', () => {
    expect(engagementScore(undefined, today)).toBeUndefined();
    expect(engagementScore(stats({ firstSeen: null }), today)).toBeUndefined();
    expect(engagementScore(stats({ events6m: 24, sources12m: 10 }), today)).toBe(10);
    expect(engagementScore(stats({ firstSeen: '2026-11-20' }), today)).toBe(1);
    fc.assert(
      fc.property(fc.nat(500), fc.nat(50), (events, sources) => {
        const score = engagementScore(stats({ events6m: events, sources12m: sources }), today)!;
        expect(score >= 0 && score <= 10).toBe(true);
      }),
    );
  });

  it('computes window starts, clamping month ends', () => {
    expect(activityWindows('2026-11-22')).toEqual({ since1m: '2026-10-22', since6m: '2026-05-22', since12m: '2025-11-22' });
    expect(activityWindows('2026-03-31').since1m).toBe('2026-02-28');
    expect(activityWindows('2024-03-31').since1m).toBe('2024-02-29');
    expect(todayUtc(Date.parse('2026-11-22T23:59:59Z'))).toBe('2026-11-22');
  });

  it('refuses a today that gives no day to start a window on', () => {
    expect(() => activityWindows('+010001-01-01')).toThrow(new RangeError('since6m must be YYYY-MM-DD, got "+010000-07"'));
  });
});
