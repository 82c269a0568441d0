import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizePersonName } from './normalize-person-name.js';
import { surnameFormsAgree, surnameGroups, SURNAME_PARTICLES } from './surname-forms.js';

const groups = (last: string) => surnameGroups(last).map((g) => (g.full === g.core ? g.full : `${g.full}/${g.core}`));

describe('surnameGroups', () => {
  it.each([
    ['Smith', ['smith']],
    ["O'Brien", ['obrien']],
    ['Garcia-Lopez', ['garcia', 'lopez']],
    ['Garcia – Lopez', ['garcia', 'lopez']],
    ['García López', ['garcia', 'lopez']],
    ['GarciaLopez', ['garcialopez']],
    ['De La Cruz', ['delacruz/cruz']],
    ['de la Cruz-Smith', ['delacruz/cruz', 'smith']],
    ['Delacruz', ['delacruz']],
    ['Van der Berg', ['vanderberg/berg']],
    ['St. John', ['stjohn/john']],
    ['Garcia y Lopez', ['garcia', 'ylopez/lopez']],
    ['Smith-Jones Jr.', ['smith', 'jones']],
    ['Smith, Jr', ['smith']],
    ['Smith De', ['smithde/smith']],
    ['De La', ['dela']],
    ['', []],
    [' -- ', []],
  ])('%j → %j', (last, expected) => {
    expect(groups(last)).toEqual(expected);
  });

  it('lists particles in their normalised form', () => {
    for (const particle of SURNAME_PARTICLES) expect(normalizePersonName({ last: particle }).last).toBe(particle);
  });

  const nameChar = fc.constantFrom(...'abcdeghilnorstuvyzéñ'.split(''), ' ', '-', '–', "'", '.', ',');
  const words = fc.array(fc.constantFrom('de', 'la', 'van', 'der', 'st', 'y', 'jr', 'iii', 'md', 'smith', 'garcia', 'lopez', 'o'), {
    maxLength: 5,
  });
  const surname = fc.oneof(
    fc.string({ unit: nameChar, maxLength: 24 }),
    fc.tuple(words, fc.constantFrom(' ', '-', ' - ', '')).map(([w, sep]) => w.join(sep)),
    fc.string(),
    fc.string({ unit: 'binary', maxLength: 12 }),
  );

  it('is total and its groups joined are the normalised last name, suffixes left out', () => {
    fc.assert(
      fc.property(fc.oneof(surname, fc.anything()), (last) => {
        const found = surnameGroups(last);
        const joined = normalizePersonName({ last: typeof last === 'string' ? last : '' }).last;
        expect(found.map((g) => g.full).join('')).toBe(joined);
        for (const g of found) {
          expect(g.core).not.toBe('');
          expect(g.full.includes(g.core)).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('ignores case, and whether words are cut by spaces or hyphens (suffixes aside: `Smith-Jr` is one word)', () => {
    const plain = words.map((w) => w.filter((word) => !['jr', 'iii', 'md'].includes(word)));
    fc.assert(
      fc.property(plain, fc.constantFrom(' ', '-', ' - '), (w, sep) => {
        const spaced = w.join(' ');
        expect(surnameGroups(w.join(sep).toUpperCase())).toEqual(surnameGroups(spaced));
      }),
    );
  });

  it('gives the cores back when given its cores, hyphenated', () => {
    fc.assert(
      fc.property(surname, (last) => {
        const once = surnameGroups(last);
        const again = surnameGroups(once.map((g) => g.core).join('-'));
        expect(again.map((g) => g.core)).toEqual(once.map((g) => g.core));
      }),
    );
  });
});

describe('surnameFormsAgree', () => {
  it.each([
    ['De La Cruz', 'Cruz', 'particle'],
    ['Van der Berg', 'Berg', 'particle'],
    ['de la Cruz Smith', 'Cruz-Smith', 'particle'],
    ['Garcia', 'Garcia-Lopez', 'part'],
    ['Lopez', 'Garcia Lopez', 'part'],
    ['Cruz', 'de la Cruz-Smith', 'part'],
    ['GarciaLopez', 'Garcia Lopez Smith', 'part'],
    ['Garcia Lopez', 'Garcia Lopez Smith', 'part'],
    ['Jones Smith', 'Smith-Jones', 'part'],
    ['Le', 'Le-Gallagher', 'part'],
    ['Le', 'Gallagher Le', 'part'],
    ['Van', 'Van der Berg', 'none'],
    ['Gallagher', 'Le Gallagher', 'particle'],
    ['Delacruz', 'Cruz', 'none'],
    ['Deleon', 'Leon', 'none'],
    ['Garcia-Lopez', 'Garcia-Martinez', 'none'],
    ['Smith', 'Jones', 'none'],
    ['O', 'O Brien', 'none'],
    ['', 'Smith', 'none'],
  ] as const)('%j ~ %j → %s', (a, b, expected) => {
    expect(surnameFormsAgree(surnameGroups(a), surnameGroups(b))).toBe(expected);
  });

  it('is symmetric', () => {
    const word = fc.constantFrom('de', 'la', 'van', 'smith', 'garcia', 'lopez', 'cruz', 'o', 'jones');
    const name = fc.tuple(fc.array(word, { maxLength: 4 }), fc.constantFrom(' ', '-', '')).map(([w, sep]) => w.join(sep));
    fc.assert(
      fc.property(name, name, (a, b) => {
        expect(surnameFormsAgree(surnameGroups(a), surnameGroups(b))).toBe(surnameFormsAgree(surnameGroups(b), surnameGroups(a)));
      }),
      { numRuns: 2000 },
    );
  });
});
