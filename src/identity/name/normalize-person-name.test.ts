import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeName } from '../../people/person-key.js';
import { nameTokens, normalizeNamePart, normalizePersonName, type PersonName, type PersonNameParts } from './normalize-person-name.js';

describe('normalizeNamePart', () => {
  it.each([
    ['José', 'jose'],
    ['  MÜLLER ', 'muller'],
    ["O'Brien", 'obrien'],
    ['O’Brien', 'obrien'],
    ['Mary-Ann', 'maryann'],
    ['Mary–Ann', 'maryann'],
    ['J.R.', 'jr'],
    ['de la Cruz', 'delacruz'],
    ['Strauß', 'strauss'],
    ['STRAUSS', 'strauss'],
    ['Ｊｏｈｎ', 'john'],
    ['', ''],
    ['!!!', ''],
  ])('%j → %j', (input, expected) => {
    expect(normalizeNamePart(input)).toBe(expected);
  });

  it('agrees with the people-store key normaliser on ordinary names', () => {
    for (const name of ['José', "O'Brien", 'Mary-Ann', 'de la Cruz', 'Zoë', 'McDonald', 'Nguyễn']) {
      expect(normalizeNamePart(name)).toBe(normalizeName(name));
    }
  });

  it('splits tokens at white space and commas but joins across apostrophes, hyphens and periods', () => {
    expect(nameTokens('Smith-Jones, Jr.')).toEqual(['smithjones', 'jr']);
    expect(nameTokens('Anne  Marie\tLouise')).toEqual(['anne', 'marie', 'louise']);
  });
});

describe('normalizePersonName: parts', () => {
  it('normalises each part', () => {
    expect(normalizePersonName({ first: 'José', middle: 'Á.', last: "O'Brien" })).toEqual({ first: 'jose', middle: 'a', last: 'obrien' });
  });

  it('gives empty strings for missing parts', () => {
    expect(normalizePersonName({})).toEqual({ first: '', middle: '', last: '' });
    expect(normalizePersonName({ last: 'Smith' })).toEqual({ first: '', middle: '', last: 'smith' });
  });

  it('moves the second token of the first name into an empty middle name', () => {
    expect(normalizePersonName({ first: 'John Q', last: 'Public' })).toEqual({ first: 'john', middle: 'q', last: 'public' });
    expect(normalizePersonName({ first: 'John Q.', middle: '', last: 'Public' })).toEqual({ first: 'john', middle: 'q', last: 'public' });
    expect(normalizePersonName({ first: 'John Quincy Adams' })).toMatchObject({ first: 'john', middle: 'quincyadams' });
  });

  it('keeps a two-token first name whole when a middle name is given', () => {
    expect(normalizePersonName({ first: 'Mary Ann', middle: 'Louise', last: 'Smith' })).toEqual({
      first: 'maryann',
      middle: 'louise',
      last: 'smith',
    });
  });

  it('keeps a single-letter first name as an initial', () => {
    expect(normalizePersonName({ first: 'J.', last: 'Smith' })).toEqual({ first: 'j', middle: '', last: 'smith' });
    expect(normalizePersonName({ first: 'J', middle: 'R', last: 'Smith' })).toEqual({ first: 'j', middle: 'r', last: 'smith' });
  });
});

describe('normalizePersonName: suffixes', () => {
  it.each([
    ['Smith Jr.', 'jr'],
    ['Smith, Jr', 'jr'],
    ['Smith JR', 'jr'],
    ['Smith Sr.', 'sr'],
    ['Smith II', 'ii'],
    ['Smith III', 'iii'],
    ['Smith IV', 'iv'],
    ['Smith V', 'v'],
    ['Smith 2nd', '2nd'],
    ['Smith 3rd', '3rd'],
    ['Smith, M.D.', 'md'],
    ['Smith PhD', 'phd'],
    ['Smith, Ph.D.', 'phd'],
    ['Smith Esq.', 'esq'],
  ])('last name %j → smith, suffix %j', (last, suffix) => {
    expect(normalizePersonName({ first: 'John', last })).toEqual({ first: 'john', middle: '', last: 'smith', suffix });
  });

  it('strips several trailing suffixes and reports them in written order', () => {
    expect(normalizePersonName({ last: 'Smith Jr., M.D.' })).toMatchObject({ last: 'smith', suffix: 'jr md' });
  });

  it("strips a suffix written after the first name ('John Jr')", () => {
    expect(normalizePersonName({ first: 'John Jr', last: 'Smith' })).toEqual({ first: 'john', middle: '', last: 'smith', suffix: 'jr' });
    expect(normalizePersonName({ first: 'John Q Jr.', last: 'Smith' })).toEqual({
      first: 'john',
      middle: 'q',
      last: 'smith',
      suffix: 'jr',
    });
  });

  it("never strips a part's only token", () => {
    expect(normalizePersonName({ first: 'J.R.', last: 'V' })).toEqual({ first: 'jr', middle: '', last: 'v' });
    expect(normalizePersonName({ last: 'Esq' })).toEqual({ first: '', middle: '', last: 'esq' });
  });

  it('only strips trailing tokens', () => {
    expect(normalizePersonName({ last: 'Jr Smith' })).toEqual({ first: '', middle: '', last: 'jrsmith' });
  });

  it('leaves the suffix out when there is none', () => {
    expect('suffix' in normalizePersonName({ first: 'Ann', last: 'Lee' })).toBe(false);
  });
});

describe('normalizePersonName: properties', () => {
  const anyText = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }));
  const anyParts = fc.record({ first: anyText, middle: anyText, last: anyText }, { requiredKeys: [] });

  // Characters for which case, accents and punctuation are the only differences worth testing.
  const nameChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzéèöüñçåø'.split(''), ' ', ' ', ',', "'", '-', '.');
  const nameText = fc.string({ unit: nameChar, maxLength: 24 });
  const nameParts = fc.record({ first: nameText, middle: nameText, last: nameText });

  const core = (n: PersonName): Omit<PersonName, 'suffix'> => ({ first: n.first, middle: n.middle, last: n.last });

  it('is total, even on values outside its type', () => {
    fc.assert(
      fc.property(fc.oneof(anyParts, fc.anything() as fc.Arbitrary<PersonNameParts>), (parts) => {
        const n = normalizePersonName(parts);
        expect(typeof n.first).toBe('string');
        expect(typeof n.middle).toBe('string');
        expect(typeof n.last).toBe('string');
      }),
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(anyParts, (parts) => {
        const once = normalizePersonName(parts);
        const twice = normalizePersonName(core(once));
        expect(core(twice)).toEqual(core(once));
        expect(twice.suffix).toBeUndefined();
      }),
    );
  });

  it('ignores case', () => {
    fc.assert(
      fc.property(nameParts, (p) => {
        const upper = { first: p.first.toUpperCase(), middle: p.middle.toUpperCase(), last: p.last.toUpperCase() };
        expect(normalizePersonName(upper)).toEqual(normalizePersonName(p));
      }),
    );
  });

  it('ignores accents', () => {
    const unaccent = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '');
    fc.assert(
      fc.property(nameParts, (p) => {
        const plain = { first: unaccent(p.first), middle: unaccent(p.middle), last: unaccent(p.last) };
        expect(normalizePersonName(plain)).toEqual(normalizePersonName(p));
      }),
    );
  });

  it('ignores apostrophes, hyphens and periods inside a name', () => {
    const punctuation = fc.constantFrom("'", '’', '-', '.');
    fc.assert(
      fc.property(nameParts, fc.nat(), punctuation, (p, at, mark) => {
        const insert = (s: string) => {
          const i = s.length === 0 ? 0 : at % (s.length + 1);
          return s.slice(0, i) + mark + s.slice(i);
        };
        const marked = { first: insert(p.first), middle: insert(p.middle), last: insert(p.last) };
        expect(normalizePersonName(marked)).toEqual(normalizePersonName(p));
      }),
    );
  });
});
