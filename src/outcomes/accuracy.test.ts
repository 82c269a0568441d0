import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accuracyReport, OUTCOME_KINDS, verdictClass, windowStart } from './accuracy.js';
import { OUTCOME_SOURCES } from './outcome-event.js';
import type { AccuracyCount } from './outcome-store.js';

describe('accuracy report', () => {
  it('puts each code in its class', () => {
    expect([50, 45, 20, 5, 400, 310, 520, 255, 10, 55, 525, 999].map(verdictClass)).toEqual([
      '50',
      '45',
      '20',
      '5',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'other',
      'other',
      'other',
      'other',
    ]);
  });

  it('sums counts per class and kind, per source, inside the window only', () => {
    const report = accuracyReport(
      [
        { day: '2026-02-28', code: 50, kind: 'bounce', source: 'sendgrid', count: 7 },
        { day: '2026-03-01', code: 50, kind: 'bounce', source: 'sendgrid', count: 2 },
        { day: '2026-03-02', code: 50, kind: 'delivery', source: 'ses', count: 5 },
        { day: '2026-03-02', code: 400, kind: 'bounce', source: 'ses', count: 1 },
        { day: '2026-03-02', code: 310, kind: 'bounce', source: 'ses', count: 1 },
      ],
      '2026-03-01',
    );
    expect(report.total).toBe(9);
    expect(report.classes['50']).toEqual({ bounce: 2, deferral: 0, blocked: 0, complaint: 0, delivery: 5 });
    expect(report.classes.invalid.bounce).toBe(2);
    expect(Object.keys(report.bySource).sort()).toEqual(['sendgrid', 'ses']);
    expect(report.bySource.ses!['50'].delivery).toBe(5);
  });

  it('loses no count inside the window and counts none before it', () => {
    const row = fc.record({
      day: fc.constantFrom('2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02'),
      code: fc.constantFrom(5, 20, 45, 50, 55, 400, 520, 999),
      kind: fc.constantFrom(...OUTCOME_KINDS),
      source: fc.constantFrom(...OUTCOME_SOURCES),
      count: fc.integer({ min: 1, max: 1000 }),
    });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 50 }), (rows: AccuracyCount[]) => {
        const report = accuracyReport(rows, '2026-03-01');
        const inWindow = rows.filter((r) => r.day >= '2026-03-01').reduce((n, r) => n + r.count, 0);
        const cells = Object.values(report.classes).flatMap((k) => Object.values(k));
        const sourceCells = Object.values(report.bySource).flatMap((c) => Object.values(c!).flatMap((k) => Object.values(k)));
        return (
          report.total === inWindow && cells.reduce((a, b) => a + b, 0) === inWindow && sourceCells.reduce((a, b) => a + b, 0) === inWindow
        );
      }),
    );
  });

  it('starts a window of n days n-1 days before today', () => {
    expect(windowStart(Date.parse('2026-03-30T23:00:00Z'), 30)).toBe('2026-03-01');
    expect(windowStart(Date.parse('2026-03-30T00:00:00Z'), 1)).toBe('2026-03-30');
  });
});
