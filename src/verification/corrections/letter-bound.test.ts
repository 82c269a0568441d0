import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { typoCost, UNITS } from './distance.js';
import { lettersOf, TypedLetters } from './letter-bound.js';

function bound(typed: string, intended: string): number {
  const letters = new TypedLetters();
  for (let i = 0; i < typed.length; i++) letters.add(typed.charCodeAt(i));
  return letters.lowerBound(lettersOf(intended)) / UNITS;
}

describe('the letter bound', () => {
  it('never exceeds the typo cost, so pruning by it changes no answer', () => {
    // Keys that neighbour each other, dots, repeats and a letter past ASCII.
    const word = fc.string({ unit: fc.constantFrom(...'asdqwzmnb.,-é'), maxLength: 10 });
    fc.assert(
      fc.property(word, word, (typed, intended) => {
        expect(bound(typed, intended)).toBeLessThanOrEqual(typoCost(typed, intended));
      }),
      { numRuns: 5000 },
    );
  });

  it('counts letters nobody typed near as a drop plus an extra', () => {
    expect(bound('.con', '.de')).toBe(2); // c for d is a neighbouring key; o, n and e are not
    expect(bound('.con', '.co')).toBe(0.5);
    expect(bound('gmial', 'gmail')).toBe(0);
  });
});
