import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lastNamePhonetic } from './phonetic.js';

describe('lastNamePhonetic', () => {
  it.each([
    ['Smith', 'Smyth'],
    ['Catherine', 'Kathryn'],
    ['McDonald', 'MacDonald'],
    ['Johnson', 'Jonson'],
    ["O'Brien", 'OBRIEN'],
    ['Müller', 'Muller'],
    ['Lee', 'Li'],
  ])('%s and %s share a code', (a, b) => {
    expect(lastNamePhonetic(a)).toBe(lastNamePhonetic(b));
    expect(lastNamePhonetic(a)).not.toBe('');
  });

  it('is the primary Double Metaphone code', () => {
    expect(lastNamePhonetic('Smith')).toBe('SM0');
    expect(lastNamePhonetic('Thompson')).toBe('TMPS');
  });

  it('keeps Latin letters that do not decompose', () => {
    expect(lastNamePhonetic('Łukasz')).toBe(lastNamePhonetic('Lukasz'));
    expect(lastNamePhonetic('Strauß')).toBe(lastNamePhonetic('Strauss'));
  });

  it('tells different names apart', () => {
    expect(lastNamePhonetic('Smith')).not.toBe(lastNamePhonetic('Jones'));
  });

  it("is '' for an empty name or one without Latin letters", () => {
    expect(lastNamePhonetic('')).toBe('');
    expect(lastNamePhonetic(" -'. ")).toBe('');
    expect(lastNamePhonetic('李')).toBe('');
  });

  it('is total, deterministic and at most four characters of A-Z and 0', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' })), (name) => {
        const code = lastNamePhonetic(name);
        expect(code).toBe(lastNamePhonetic(name));
        expect(code).toMatch(/^[A-Z0]{0,4}$/);
      }),
    );
  });
});
