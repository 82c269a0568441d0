import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstNamesAgree, nameVariants } from './nicknames.js';
import { normalizeNamePart } from './normalize-person-name.js';

describe('nameVariants', () => {
  it('holds the name, its nicknames and the formal names it shortens', () => {
    const robert = nameVariants('Robert');
    for (const name of ['robert', 'bob', 'bobby', 'rob', 'robby']) expect(robert.has(name)).toBe(true);
    const bob = nameVariants('BOB');
    for (const name of ['bob', 'robert']) expect(bob.has(name)).toBe(true);
  });

  it('follows one hop only', () => {
    // bill is a nickname of both william and robert; william is not a variant of robert.
    expect(nameVariants('bill').has('william')).toBe(true);
    expect(nameVariants('bill').has('robert')).toBe(true);
    expect(nameVariants('robert').has('william')).toBe(false);
    // bob and bobby both shorten robert, but are not each other's variants unless listed.
    expect(nameVariants('bob').has('will')).toBe(false);
  });

  it('normalises the name and the data alike', () => {
    expect(nameVariants('K.C.').has('casey')).toBe(true);
    expect(nameVariants('  Cathérine ').has('kathy')).toBe(true);
  });

  it('gives the name alone when it is in no pair', () => {
    expect([...nameVariants('Zebulonius')]).toEqual(['zebulonius']);
  });

  it('is empty for a name without letters or digits', () => {
    expect(nameVariants('').size).toBe(0);
    expect(nameVariants(' .- ').size).toBe(0);
  });
});

describe('firstNamesAgree', () => {
  it.each([
    ['John', 'john', 'exact'],
    ['José', 'JOSE', 'exact'],
    ['Mary-Ann', 'maryann', 'exact'],
    ['Bob', 'Robert', 'nickname'],
    ['William', 'Bill', 'nickname'],
    ['Kathy', 'Catherine', 'nickname'],
    ['J', 'John', 'initial'],
    ['john', 'J.', 'initial'],
    ['J', 'Robert', 'none'],
    ['Bob', 'Bill', 'none'],
    ['John', 'Jane', 'none'],
    ['', 'John', 'none'],
    ['', '', 'none'],
  ] as const)('%j ~ %j → %s', (a, b, expected) => {
    expect(firstNamesAgree(a, b)).toBe(expected);
  });

  it('is symmetric', () => {
    const listed = fc.constantFrom(
      'robert',
      'bob',
      'bill',
      'william',
      'will',
      'catherine',
      'kathy',
      'kc',
      'casey',
      'j',
      'b',
      'r',
      'ann',
      'anna',
    );
    const name = fc.oneof(listed, fc.string({ maxLength: 8 }));
    fc.assert(
      fc.property(name, name, (a, b) => {
        expect(firstNamesAgree(a, b)).toBe(firstNamesAgree(b, a));
      }),
    );
  });

  it('agrees with nameVariants', () => {
    fc.assert(
      fc.property(fc.constantFrom('robert', 'bob', 'bill', 'william', 'peggy', 'margaret', 'ted', 'edward'), (a) => {
        for (const b of nameVariants(a)) expect(firstNamesAgree(a, b)).not.toBe('none');
      }),
    );
  });

  it('includes the normalised name itself in its variants', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom('Robert', 'BOB', 'K.C.', 'Cathérine')), (name) => {
        const normalised = normalizeNamePart(name);
        const variants = nameVariants(name);
        expect(variants.has(normalised)).toBe(normalised !== '');
        if (normalised !== '') expect(firstNamesAgree(name, name)).toBe('exact');
      }),
    );
  });
});
