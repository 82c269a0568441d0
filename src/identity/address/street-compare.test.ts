import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseStreet } from './parse-street.js';
import { sameNumberedRoad, unitIdKey } from './street-compare.js';

/** Every spelling a file may give each road class (Publication 28 section 237 and list usage). */
const SPELLINGS: Readonly<Record<string, readonly string[]>> = {
  state: ['State Hwy', 'State Highway', 'St Hwy', 'St. Hwy.', 'SH', 'State Route', 'State Rte', 'ST RT', 'SR', 'State Rd', 'St Rd'],
  county: ['County Road', 'County Rd', 'CR', 'Co Rd', 'Co. Rd.', 'CTY RD', 'CNTY RD', 'Cnty Road', 'County Hwy', 'Co Hwy', 'Cty Hwy'],
  plain: ['Hwy', 'Highway', 'Route', 'Rte', 'Rt'],
  us: ['US Hwy', 'US Highway', 'U.S. Hwy', 'US Route'],
};
const name = (spelling: string, n: string) => parseStreet(`123 ${spelling} ${n}`).name;
const roadNumber = fc.integer({ min: 1, max: 999 }).map(String);

describe('numbered roads', () => {
  it('are one road in any spelling of their class, and of the unqualified class for state and US roads', () => {
    const pair = (a: string, b: string) =>
      fc.property(fc.constantFrom(...SPELLINGS[a]!), fc.constantFrom(...SPELLINGS[b]!), roadNumber, (x, y, n) => {
        expect(sameNumberedRoad(name(x, n), name(y, n)), `${x} ${n} / ${y} ${n}`).toBe(true);
      });
    for (const [a, b] of [
      ['state', 'state'],
      ['county', 'county'],
      ['plain', 'state'],
      ['us', 'plain'],
      ['plain', 'plain'],
    ])
      fc.assert(pair(a!, b!), { numRuns: 200 });
  });

  it('are never another number, nor a county road for a state, US or unqualified one', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.values(SPELLINGS).flat()), roadNumber, roadNumber, (x, n, m) => {
        fc.pre(n !== m);
        expect(sameNumberedRoad(name(x, n), name(x, m))).toBe(false);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...SPELLINGS.county!),
        fc.constantFrom(...SPELLINGS.state!, ...SPELLINGS.plain!, ...SPELLINGS.us!),
        roadNumber,
        (x, y, n) => {
          expect(sameNumberedRoad(name(x, n), name(y, n))).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
    expect(sameNumberedRoad('STATE HIGHWAY 61', 'US HIGHWAY 61')).toBe(false);
  });

  it('leave other names to the caller', () => {
    expect(sameNumberedRoad('MAIN', 'HIGHWAY 61')).toBeUndefined();
    expect(sameNumberedRoad('OLD HIGHWAY 5', 'HIGHWAY 5')).toBeUndefined();
  });
});

describe('unit ids', () => {
  it('are one unit in any punctuation of a number and a letter', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.constantFrom(...'ABCDEFGH'),
        fc.constantFrom('', '-', ' ', ' - '),
        fc.boolean(),
        (n, letter, sep, zero) => {
          const digits = `${zero ? '0' : ''}${n}`;
          expect(unitIdKey(`${digits}${sep}${letter}`)).toBe(`${n}${letter}`);
          expect(unitIdKey(`${letter}${sep}${digits}`)).toBe(`${letter}${n}`);
          expect(unitIdKey(digits)).toBe(String(n));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keep other ids as given: two numbers stay apart, and a different letter is another unit', () => {
    expect(unitIdKey('12-10')).toBe('12-10');
    expect(unitIdKey('A FL 3')).toBe('A FL 3');
    expect(unitIdKey('3C')).not.toBe(unitIdKey('3D'));
    expect(unitIdKey(undefined)).toBeUndefined();
  });

  it('read the same from every way a file writes the unit', () => {
    for (const line of [
      '12 Main St Apt 3-C',
      '12 Main St #3C',
      '12 Main St Apt. 3C',
      '12 Main St Unit 3 C',
      '12 Main St Apt #3-C',
      '12 Main St, Apt 3c',
    ])
      expect(unitIdKey(parseStreet(line).unitId), line).toBe('3C');
  });
});
