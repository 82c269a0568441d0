import { describe, expect, it } from 'vitest';
import { createLogger } from '../core/logger.js';
import { createAdminThrottle, FREE_FAILURES, LONGEST_WAIT_MS } from './admin-throttle.js';

function throttle() {
  let now = 1_000_000;
  const lines: string[] = [];
  const logger = createLogger('warn', { write: (line: string) => void lines.push(line) });
  const t = createAdminThrottle({ clock: { now: () => now }, logger });
  return { t, lines, advance: (ms: number) => (now += ms) };
}

describe('createAdminThrottle', () => {
  it('answers the first failures at once, then makes the address wait longer after each, up to a minute', () => {
    const { t } = throttle();
    for (let i = 0; i < FREE_FAILURES; i++) {
      expect(t.waitSeconds('10.0.0.1')).toBe(0);
      t.failed('10.0.0.1');
    }
    expect(t.waitSeconds('10.0.0.1')).toBe(0);
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) {
      t.failed('10.0.0.1');
      waits.push(t.waitSeconds('10.0.0.1'));
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
    expect(LONGEST_WAIT_MS).toBe(60_000);
    // Another address is not slowed by this one's guesses.
    expect(t.waitSeconds('10.0.0.2')).toBe(0);
  });

  it('slows, never locks out: the wait ends, and a right token forgets the failures', () => {
    const { t, advance } = throttle();
    for (let i = 0; i <= FREE_FAILURES; i++) t.failed('10.0.0.1');
    expect(t.waitSeconds('10.0.0.1')).toBe(1);
    advance(1_000);
    expect(t.waitSeconds('10.0.0.1')).toBe(0);
    t.succeeded('10.0.0.1');
    t.failed('10.0.0.1');
    expect(t.waitSeconds('10.0.0.1')).toBe(0);
  });

  it('logs once per burst, and again for a burst after a quiet quarter of an hour', () => {
    const { t, lines, advance } = throttle();
    for (let i = 0; i < 50; i++) {
      t.failed('10.0.0.1');
      advance(60_000);
    }
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ client_address: '10.0.0.1', failures: FREE_FAILURES + 1 });
    advance(16 * 60_000);
    expect(t.waitSeconds('10.0.0.1')).toBe(0);
    for (let i = 0; i <= FREE_FAILURES; i++) t.failed('10.0.0.1');
    expect(lines).toHaveLength(2);
  });
});
