import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jaroWinkler, oneSlipApart } from './similarity.js';

describe('jaroWinkler', () => {
  it('matches the textbook values', () => {
    expect(jaroWinkler('martha', 'marhta')).toBeCloseTo(0.9611, 4);
    expect(jaroWinkler('dwayne', 'duane')).toBeCloseTo(0.84, 2);
    expect(jaroWinkler('dixon', 'dicksonx')).toBeCloseTo(0.8133, 4);
  });

  it('is 1 for equal strings, empty ones included', () => {
    expect(jaroWinkler('smith', 'smith')).toBe(1);
    expect(jaroWinkler('', '')).toBe(1);
  });

  it('is 0 when exactly one side is empty, or nothing matches', () => {
    expect(jaroWinkler('', 'smith')).toBe(0);
    expect(jaroWinkler('smith', '')).toBe(0);
    expect(jaroWinkler('abc', 'xyz')).toBe(0);
  });

  it('is symmetric, in [0, 1] and 1 on equal strings', () => {
    const text = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 10 }));
    fc.assert(
      fc.property(text, text, (a, b) => {
        const score = jaroWinkler(a, b);
        expect(score).toBe(jaroWinkler(b, a));
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1);
        expect(jaroWinkler(a, a)).toBe(1);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('oneSlipApart', () => {
  it.each([
    ['jojn', 'john', true],
    ['jhon', 'john', true],
    ['wolliams', 'williams', true],
    ['smith', 'smyth', true],
    ['michael', 'michelle', false],
    ['frank', 'franklin', false],
    ['davis', 'davidson', false],
    ['john', 'john', false],
    ['ann', 'anna', false],
    ['kohn', 'john', false],
  ])('%s / %s → %s', (a, b, expected) => {
    expect(oneSlipApart(a, b)).toBe(expected);
    expect(oneSlipApart(b, a)).toBe(expected);
  });
});
