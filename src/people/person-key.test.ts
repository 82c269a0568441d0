import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeCity, normalizeName, normalizeState, normalizeStreet, personKeyOf, zip5Of } from './person-key.js';

const base = { firstName: 'Jane', lastName: "O'Brien", address: '12 Main St.', zip: '02134-1234', emails: ['jane@example.com'] };

describe('normalisation', () => {
  it('folds names to letters and digits, lower-case, without accents', () => {
    expect(normalizeName("  O'Brien ")).toBe('obrien');
    expect(normalizeName('Mary-Ann')).toBe('maryann');
    expect(normalizeName('JOSÉ')).toBe('jose');
    expect(normalizeName('de la Cruz')).toBe('delacruz');
  });

  it('upper-cases streets and cities, strips punctuation, collapses spaces', () => {
    expect(normalizeStreet('123  Main St., Apt #4')).toBe('123 MAIN ST APT 4');
    expect(normalizeStreet(" 9 O'Neil-Ave ")).toBe('9 ONEIL AVE');
    expect(normalizeCity('St. Louis')).toBe('ST LOUIS');
    expect(normalizeCity('Cañon City')).toBe('CANON CITY');
    expect(normalizeState(' ca ')).toBe('CA');
  });

  it('takes ZIP5 from ZIP and ZIP+4 only', () => {
    expect(zip5Of('02134')).toBe('02134');
    expect(zip5Of('02134-1234')).toBe('02134');
    expect(zip5Of('021341234')).toBe('02134');
    expect(zip5Of('2134')).toBe('');
    expect(zip5Of('0213412')).toBe('');
    expect(zip5Of('')).toBe('');
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(normalizeName(normalizeName(s))).toBe(normalizeName(s));
        expect(normalizeStreet(normalizeStreet(s))).toBe(normalizeStreet(s));
      }),
    );
  });
});

describe('personKeyOf', () => {
  it('prefers the record person_id', () => {
    expect(personKeyOf({ ...base, personId: ' P-17 ' })).toBe('P-17');
  });

  it('derives the same key from differently written names and streets', () => {
    const key = personKeyOf(base);
    expect(key).toMatch(/^n:[0-9a-f]{40}$/);
    expect(personKeyOf({ ...base, firstName: 'JANE', lastName: 'obrien', address: '12 MAIN ST', zip: '02134', emails: [] })).toBe(key);
    expect(personKeyOf({ ...base, address: '14 Main St.' })).not.toBe(key);
  });

  it('falls back to the first email without a full name and address', () => {
    const key = personKeyOf({ ...base, address: '' });
    expect(key).toMatch(/^e:[0-9a-f]{40}$/);
    expect(personKeyOf({ ...base, address: '', firstName: '', emails: [' JANE@example.com'] })).toBe(key);
    expect(() => personKeyOf({ ...base, address: '', emails: [] })).toThrow(RangeError);
  });
});
