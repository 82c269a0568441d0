import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizePersonName } from './normalize-person-name.js';
import { NAME_TITLES } from './titles.js';

describe('titles before the first name', () => {
  it.each([
    ['Dr. Jennifer K', { first: 'jennifer', middle: 'k' }],
    ['Mr John', { first: 'john', middle: '' }],
    ['Mrs. Mary', { first: 'mary', middle: '' }],
    ['MS ANN', { first: 'ann', middle: '' }],
    ['Rev. Dr. Martin Luther', { first: 'martin', middle: 'luther' }],
    ['Mr. & Mrs. John', { first: 'john', middle: '' }],
    ['Mr and Mrs John', { first: 'john', middle: '' }],
    ['Sister Mary Agnes', { first: 'mary', middle: 'agnes' }],
    ['Sr. Mary', { first: 'mary', middle: '' }],
    ['Hon Ann', { first: 'ann', middle: '' }],
  ])('%j', (first, expected) => {
    expect(normalizePersonName({ first, last: 'Smith' })).toMatchObject({ ...expected, last: 'smith' });
  });

  it('keeps a first name that is only a title-like word, and names that look like titles', () => {
    expect(normalizePersonName({ first: 'Miss', last: 'Smith' }).first).toBe('miss');
    expect(normalizePersonName({ first: 'Mr and', last: 'Smith' })).toMatchObject({ first: 'and' });
    expect(normalizePersonName({ first: 'Dean Martin', last: 'Smith' })).toMatchObject({ first: 'dean', middle: 'martin' });
  });

  it('reads a name with a title before it as the name without it', () => {
    const word = fc.stringMatching(/^[A-Z][a-z]{1,8}$/).filter((w) => !NAME_TITLES.has(w.toLowerCase()));
    const title = fc.constantFrom(...NAME_TITLES).map((t) => t[0]!.toUpperCase() + t.slice(1));
    fc.assert(
      fc.property(title, fc.constantFrom('', '.'), word, fc.option(word), (t, dot, first, middle) => {
        const plain = middle === null ? first : `${first} ${middle}`;
        expect(normalizePersonName({ first: `${t}${dot} ${plain}`, last: 'Smith' })).toEqual(
          normalizePersonName({ first: plain, last: 'Smith' }),
        );
      }),
    );
  });
});
