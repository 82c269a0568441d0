import { describe, expect, it } from 'vitest';
import { generationOf, NAME_SUFFIXES } from './name-suffixes.js';
import { normalizePersonName } from './normalize-person-name.js';

describe('NAME_SUFFIXES', () => {
  it('lists the generational and professional suffixes', () => {
    expect([...NAME_SUFFIXES].sort()).toEqual(['2nd', '3rd', 'esq', 'ii', 'iii', 'iv', 'jr', 'md', 'phd', 'sr', 'v']);
  });
});

describe('generationOf', () => {
  it.each([
    ['jr', 'jr'],
    ['jr md', 'jr'],
    ['md', ''],
    ['phd esq', ''],
    ['2nd', 'ii'],
    ['3rd', 'iii'],
    ['iv', 'iv'],
    ['', ''],
    [undefined, ''],
  ])('%j → %j', (suffix, expected) => {
    expect(generationOf(suffix)).toBe(expected);
  });

  it('reads what normalizePersonName reports', () => {
    expect(generationOf(normalizePersonName({ last: 'Smith Jr., M.D.' }).suffix)).toBe('jr');
    expect(generationOf(normalizePersonName({ last: 'Smith 2nd' }).suffix)).toBe(
      generationOf(normalizePersonName({ last: 'Smith II' }).suffix),
    );
  });
});
