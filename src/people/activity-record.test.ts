import { describe, expect, it } from 'vitest';
import { activityFrom, utcDay } from './activity-record.js';

const now = new Date('2024-06-15T12:00:00Z');
const ok = { email: ' A@Example.com', source: 'newsletter', seen_at: '2024-03-05', event: 'open' };
const problemsOf = (record: Record<string, unknown>) => {
  const result = activityFrom(record, now);
  return 'problems' in result ? result.problems : [];
};

describe('activityFrom', () => {
  it('builds an event on its UTC day', () => {
    expect(activityFrom(ok, now)).toEqual({
      activity: { email: 'a@example.com', source: 'newsletter', seenOn: '2024-03-05', event: 'open' },
    });
    expect(activityFrom({ ...ok, seen_at: '2024-03-05T23:30:00-05:00', event: 'seen' }, now)).toHaveProperty(
      'activity.seenOn',
      '2024-03-06',
    );
  });

  it('lists every problem with its field', () => {
    expect(problemsOf({})).toEqual(['email: missing', 'source: missing', 'seen_at: missing', 'event: missing']);
    expect(problemsOf({ email: 'x', source: 's'.repeat(101), seen_at: 1709596800, event: 'click', extra: 1 })).toEqual([
      'extra: unknown field',
      'email: "x" is not a valid address (no @ sign)',
      'source: longer than 100 characters',
      'seen_at: 1709596800 is not text',
      'event: "click" is not seen or open',
    ]);
    expect(problemsOf({ ...ok, seen_at: '2024-02-30' })).toEqual(['seen_at: "2024-02-30" is not an ISO date or date-time']);
    expect(problemsOf({ ...ok, seen_at: '2030-01-01' })).toEqual(['seen_at: "2030-01-01" is in the future']);
    expect(problemsOf({ ...ok, __proto__: 1 })).toEqual([]);
    expect(problemsOf(JSON.parse('{"email":"a@example.com","source":"s","seen_at":"2024-01-01","event":"seen","__proto__":1}'))).toEqual([
      '__proto__: unknown field',
    ]);
  });
});

describe('utcDay', () => {
  it.each([
    ['2024-03-05', '2024-03-05'],
    ['2024-03-05T10:00:00Z', '2024-03-05'],
    ['2024-03-05 10:00', '2024-03-05'],
    ['2024-03-05T00:30:00+02:00', '2024-03-04'],
    ['2024-03-05T22:00:00.123-0300', '2024-03-06'],
    ['2024-12-31T23:59:59-01', '2025-01-01'],
  ])('%s → %s', (input, day) => expect(utcDay(input)).toBe(day));

  it.each(['2024-3-5', '2024-03-05T24:00', '2024-03-05T10:00+15:00', '1969-12-31', 'yesterday', '2024-03-05Z', ''])('refuses %j', (input) =>
    expect(utcDay(input)).toBeUndefined(),
  );
});
