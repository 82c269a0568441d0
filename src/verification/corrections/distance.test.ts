import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareIntended, typoCost, typoCostWithin } from './distance.js';
import { areAdjacentKeys } from './keyboard.js';

describe('areAdjacentKeys (US QWERTY)', () => {
  it.each([
    ['m', 'n'],
    ['m', 'k'],
    ['m', ','],
    ['o', '0'],
    ['g', 't'],
    ['q', 'a'],
    ['c', 'v'],
    ['A', 's'],
  ])('%s touches %s', (a, b) => {
    expect(areAdjacentKeys(a, b)).toBe(true);
    expect(areAdjacentKeys(b, a)).toBe(true);
  });

  it.each([
    ['m', 'a'],
    ['g', 'm'],
    ['a', 'a'],
    ['.', 'm'],
    ['é', 'e'],
  ])('%s does not touch %s', (a, b) => {
    expect(areAdjacentKeys(a, b)).toBe(false);
  });
});

describe('typoCost', () => {
  it.each([
    ['gnail', 'gmail', 0.5], // neighbouring key
    ['gxail', 'gmail', 1], // any other key
    ['gmaill', 'gmail', 0.5], // letter typed twice
    ['yaho', 'yahoo', 0.5], // doubled letter typed once
    ['gmal', 'gmail', 0.75], // letter dropped
    ['gmial', 'gmail', 0.75], // two letters swapped
    ['hortmail', 'hotmail', 0.6], // stray key beside its neighbour
    ['gmailcom', 'gmail.com', 0.75], // dot dropped
    ['gmailc.om', 'gmail.com', 0.75], // dot one place off
    ['fe', 'fr', 0.5],
    ['fe', 'de', 0.6], // first letters are rarely wrong
  ])('%s for %s costs %d', (typed, intended, cost) => {
    expect(typoCost(typed, intended)).toBe(cost);
  });

  it('is zero exactly for equal strings and never more than plain edit distance', () => {
    const word = fc.stringMatching(/^[a-z.]{0,10}$/);
    fc.assert(
      fc.property(word, word, (a, b) => {
        const cost = typoCost(a, b);
        expect(cost === 0).toBe(a === b);
        expect(cost).toBeGreaterThanOrEqual(0);
        expect(cost).toBeLessThanOrEqual(1.1 * Math.max(a.length, b.length));
      }),
    );
  });
});

describe('typoCostWithin', () => {
  it('is typoCost when within the limit, and above the limit otherwise', () => {
    const word = fc.stringMatching(/^[a-z.,-]{0,12}$/);
    const limit = fc.constantFrom(0.5, 0.75, 1, 1.25, 1.5, 2, 2.5);
    fc.assert(
      fc.property(word, word, limit, (typed, intended, max) => {
        const exact = typoCost(typed, intended);
        const bounded = typoCostWithin(typed, prepareIntended(intended), max);
        if (exact <= max) expect(bounded).toBe(exact);
        else expect(bounded).toBeGreaterThan(max);
      }),
      { numRuns: 3000 },
    );
  });
});
