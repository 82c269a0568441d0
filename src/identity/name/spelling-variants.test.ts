import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isKnownFirstName, knownFirstNameCount } from './known-first-names.js';
import { spellingVariants } from './spelling-variants.js';

describe('spellingVariants', () => {
  it.each([
    ['kurtis', 'curtis'],
    ['kaleb', 'caleb'],
    ['sheryl', 'cheryl'],
    ['ashleigh', 'ashley'],
    ['ashlee', 'ashley'],
    ['dillon', 'dylan'],
    ['cathryn', 'kathryn'],
    ['cathleen', 'kathleen'],
    ['catherine', 'katherine'],
    ['bryan', 'brian'],
    ['stephen', 'steven'],
    ['sarah', 'sara'],
    ['meghan', 'megan'],
    ['kristen', 'kristin'],
    ['lindsay', 'lindsey'],
    ['christina', 'kristina'],
    ['caitlin', 'kaitlyn'],
  ])('%s and %s are one name', (a, b) => {
    expect(spellingVariants(a, b)).toBe(true);
    expect(spellingVariants(b, a)).toBe(true);
  });

  it.each([
    ['john', 'joan', 'a vowel more'],
    ['jean', 'juan', 'another vowel'],
    ['dana', 'donna', 'another vowel'],
    ['tina', 'dina', 'voicing'],
    ['gail', 'kail', 'voicing'],
    ['carol', 'carl', 'a vowel more'],
    ['eric', 'erica', 'a vowel more'],
    ['daniel', 'danielle', 'a vowel more'],
    ['terri', 'terry', 'the closing i of a woman’s spelling'],
    ['toni', 'tony', 'the closing i of a woman’s spelling'],
    ['jane', 'anne', 'Double Metaphone’s alternative code only'],
    ['aaron', 'warren', 'a vowel against a consonant first'],
    ['andrew', 'andres', 'the closing consonants past the four-letter code'],
    ['kathryn', 'cathleen', 'two names (Katherine, Kathleen)'],
    ['colleen', 'colin', 'a long closing vowel'],
    ['jo', 'joe', 'under three letters'],
  ])('%s and %s are two names (%s)', (a, b) => {
    expect(spellingVariants(a, b)).toBe(false);
    expect(spellingVariants(b, a)).toBe(false);
  });

  it('is symmetric and never holds for a name and itself', () => {
    const name = fc.stringMatching(/^[a-z]{1,9}$/);
    fc.assert(
      fc.property(name, name, (a, b) => {
        expect(spellingVariants(a, b)).toBe(spellingVariants(b, a));
        expect(spellingVariants(a, a)).toBe(false);
      }),
    );
  });

  it('never joins two names whose first vowels differ', () => {
    const vowel = fc.constantFrom('a', 'e', 'i', 'o', 'u');
    const consonants = fc.stringMatching(/^[bcdfgklmnprstvz]{1,2}$/);
    fc.assert(
      fc.property(consonants, vowel, vowel, consonants, fc.stringMatching(/^[a-z]{0,4}$/), (c1, v1, v2, c2, rest) => {
        fc.pre(v1 !== v2);
        expect(spellingVariants(`${c1}${v1}${c2}${rest}`, `${c1}${v2}${c2}${rest}`)).toBe(false);
      }),
    );
  });
});

describe('known first names', () => {
  it('holds the Moby lists and the nickname data, and no typos', () => {
    expect(knownFirstNameCount()).toBeGreaterThan(8_400);
    for (const name of ['joan', 'john', 'kaleb', 'sheryl', 'carol', 'mary', 'bob']) expect(isKnownFirstName(name), name).toBe(true);
    for (const name of ['jhon', 'smtih', 'wiliam', '']) expect(isKnownFirstName(name), name).toBe(false);
  });
});
