import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cityKey } from './city-key.js';

describe('cityKey', () => {
  it.each([
    ['St. Louis', 'Saint Louis'],
    ['ST LOUIS', 'saint louis'],
    ['St.Louis', 'Saint Louis'],
    ['Ste. Genevieve', 'Sainte Genevieve'],
    ['Ft Lauderdale', 'Fort Lauderdale'],
    ['Ft. Lauderdale', 'Fort Lauderdale'],
    ['Mt Vernon', 'Mount Vernon'],
    ['Colorado Spgs', 'Colorado Springs'],
    ['Chandler Hts', 'Chandler Heights'],
    ["O'Fallon", 'O Fallon'],
    ["Coeur d'Alene", 'Coeur D Alene'],
    ['McKinney', 'Mc Kinney'],
    ['Winston-Salem', 'Winston Salem'],
    ['  New   York ', 'new york'],
    ['Cañon City', 'Canon City'],
    ['Peñasco', 'Penasco'],
  ])('%j agrees with %j', (a, b) => {
    expect(cityKey(a)).toBe(cityKey(b));
    expect(cityKey(a)).not.toBe('');
  });

  it('expands abbreviations only as whole words', () => {
    expect(cityKey('Stamford')).toBe('stamford');
    expect(cityKey('Forest Hills')).not.toBe(cityKey('Fort Hills'));
  });

  it('keeps different places apart', () => {
    expect(cityKey('Spring')).not.toBe(cityKey('Springs'));
    expect(cityKey('Saint Louis')).not.toBe(cityKey('Sainte Louis'));
  });

  it("is '' without letters or digits", () => {
    expect(cityKey('')).toBe('');
    expect(cityKey(' .-/ ')).toBe('');
  });

  it('is total, and blind to case, spacing and punctuation between words', () => {
    const word = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'.split('')), minLength: 1, maxLength: 8 });
    const gap = fc.constantFrom(' ', '  ', '-', '. ', "'", ', ');
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), gap, (words, between) => {
        expect(cityKey(words.join(between).toUpperCase())).toBe(cityKey(words.join(' ')));
      }),
    );
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' })), (city) => {
        expect(typeof cityKey(city)).toBe('string');
      }),
    );
  });
});
