import { describe, expect, it } from 'vitest';
import { DIRECTIONALS } from './data/directionals.js';
import { STATES } from './data/states.js';
import { STREET_SUFFIX_TABLE } from './data/street-suffixes.js';
import { directionalOf, isStateCode, routePrefixAt, stateOf, suffixOf, unitDesignatorOf } from './pub28.js';

const suffixLines = STREET_SUFFIX_TABLE.split('\n')
  .map((line) => line.trim().split(/\s+/))
  .filter((words) => words[0] !== '');

describe('Appendix C1 street suffixes', () => {
  it('lists every primary suffix name once, about two hundred of them', () => {
    const primaries = suffixLines.map(([, primary]) => primary);
    expect(new Set(primaries).size).toBe(primaries.length);
    expect(primaries.length).toBeGreaterThanOrEqual(200);
  });

  it('maps every primary name, standard abbreviation and common form to its standard abbreviation', () => {
    for (const [standard, primary, ...forms] of suffixLines) {
      expect(suffixOf(standard!)).toBe(standard);
      expect(suffixOf(primary!)).toBe(standard);
      // A form listed under two suffixes keeps the first; Publication 28 has one such (MDW).
      for (const form of forms) if (form !== 'MDW') expect(suffixOf(form)).toBe(standard);
    }
  });

  it.each([
    ['STREET', 'ST'],
    ['STR', 'ST'],
    ['STRT', 'ST'],
    ['ST', 'ST'],
    ['AVENUE', 'AVE'],
    ['AV', 'AVE'],
    ['AVEN', 'AVE'],
    ['AVNUE', 'AVE'],
    ['BOULEVARD', 'BLVD'],
    ['CIRCLE', 'CIR'],
    ['CROSSING', 'XING'],
    ['EXPRESSWAY', 'EXPY'],
    ['MEADOW', 'MDW'],
    ['MEADOWS', 'MDWS'],
    ['PARKS', 'PARK'],
    ['PARKWAYS', 'PKWY'],
    ['TRAILER', 'TRLR'],
    ['HGTS', 'HTS'],
    ['CRT', 'CT'],
  ])('%s → %s', (word, standard) => {
    expect(suffixOf(word)).toBe(standard);
  });

  it('does not take ordinary words for suffixes', () => {
    for (const word of ['MAIN', 'NORTH', 'APT', 'CR', 'LA', 'OVERLOOK']) expect(suffixOf(word)).toBeUndefined();
  });
});

describe('section 233 directionals', () => {
  it('maps the eight directionals and their abbreviations', () => {
    expect(Object.keys(DIRECTIONALS)).toHaveLength(8);
    for (const [word, abbreviation] of Object.entries(DIRECTIONALS)) {
      expect(directionalOf(word)).toBe(abbreviation);
      expect(directionalOf(abbreviation)).toBe(abbreviation);
    }
    expect(directionalOf('NORTHEAST')).toBe('NE');
    expect(directionalOf('O')).toBeUndefined();
  });
});

describe('Appendix C2 secondary unit designators', () => {
  it.each([
    ['APARTMENT', 'APT', true],
    ['SUITE', 'STE', true],
    ['UNIT', 'UNIT', true],
    ['FLOOR', 'FL', true],
    ['BUILDING', 'BLDG', true],
    ['ROOM', 'RM', true],
    ['DEPARTMENT', 'DEPT', true],
    ['SPACE', 'SPC', true],
    ['TRAILER', 'TRLR', true],
    ['LOT', 'LOT', true],
    ['BASEMENT', 'BSMT', false],
    ['FRONT', 'FRNT', false],
    ['LOBBY', 'LBBY', false],
    ['OFFICE', 'OFC', false],
    ['PENTHOUSE', 'PH', false],
    ['REAR', 'REAR', false],
    ['UPPER', 'UPPR', false],
    ['#', '#', true],
    ['NO', '#', true],
  ])('%s → %s (range required: %s)', (word, abbreviation, requiresRange) => {
    expect(unitDesignatorOf(word)).toEqual({ abbreviation, requiresRange });
  });
});

describe('Appendix B states', () => {
  it('covers the states, DC, possessions and the Armed Forces codes', () => {
    expect(new Set(Object.values(STATES)).size).toBe(62);
    expect(stateOf('NEW YORK')).toBe('NY');
    expect(stateOf('DISTRICT OF COLUMBIA')).toBe('DC');
    expect(stateOf('PR')).toBe('PR');
    expect(isStateCode('AE')).toBe(true);
    expect(isStateCode('ZZ')).toBe(false);
  });
});

describe('route prefixes (section 237)', () => {
  it('matches the longest variant, any suffix spelling inside it', () => {
    expect(routePrefixAt(['US', 'HWY', '50'], 0)).toEqual({ canonical: 'US HIGHWAY', length: 2, anywhere: true, numbered: false });
    expect(routePrefixAt(['CO', 'ROAD', '5'], 0)).toEqual({ canonical: 'COUNTY ROAD', length: 2, anywhere: true, numbered: false });
    expect(routePrefixAt(['AVE', 'H'], 0)).toEqual({ canonical: 'AVENUE', length: 1, anywhere: false, numbered: false });
    expect(routePrefixAt(['ST', 'RD'], 0)).toBeUndefined();
    // `ST` and `CTY` are State and County only before a road number.
    expect(routePrefixAt(['ST', 'HWY', '61'], 0)).toEqual({ canonical: 'STATE HIGHWAY', length: 2, anywhere: true, numbered: true });
    expect(routePrefixAt(['ST', 'RD', 'E'], 0)).toBeUndefined();
    expect(routePrefixAt(['CTY', 'RD', '5'], 0)).toEqual({ canonical: 'COUNTY ROAD', length: 2, anywhere: true, numbered: true });
    expect(routePrefixAt(['CTY', 'RD'], 0, true)).toMatchObject({ canonical: 'COUNTY ROAD' });
  });
});
