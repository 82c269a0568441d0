import { describe, expect, it } from 'vitest';
import { formatStreetLine, streetKey } from './format-street.js';
import { parseStreet } from './parse-street.js';

describe('streetKey', () => {
  it('joins number, directionals, name and suffix with single spaces and leaves the unit out', () => {
    expect(streetKey({ number: '123', preDirectional: 'N', name: 'MAIN', suffix: 'ST', unitType: 'APT', unitId: '4' })).toBe(
      '123 N MAIN ST',
    );
    expect(streetKey({ number: '1005', name: 'GRAVENSTEIN', suffix: 'HWY', postDirectional: 'N' })).toBe('1005 GRAVENSTEIN HWY N');
    expect(streetKey({ name: 'HIGHWAY 34', postDirectional: 'E' })).toBe('HIGHWAY 34 E');
    expect(streetKey({ name: '' })).toBe('');
  });

  it('writes boxes the way they are addressed', () => {
    expect(streetKey({ number: '123', name: 'PO BOX' })).toBe('PO BOX 123');
    expect(streetKey({ number: '152', name: 'RR 2 BOX' })).toBe('RR 2 BOX 152');
  });

  it('is the same for spellings of one street', () => {
    const key = streetKey(parseStreet('123 N. Main St.'));
    expect(key).toBe('123 N MAIN ST');
    for (const line of [
      '123 north main street',
      '123 NORTH MAIN STREET',
      ' 123  N  Main  Str ',
      '123 N Main St Apt 4',
      '123 N. Main St., #4',
    ]) {
      expect(streetKey(parseStreet(line))).toBe(key);
    }
  });
});

describe('formatStreetLine', () => {
  it('is the Publication 28 line with the unit', () => {
    expect(formatStreetLine(parseStreet('123 North Main Street Apartment 4'))).toBe('123 N MAIN ST APT 4');
    expect(formatStreetLine(parseStreet('456 Oak Avenue, Suite 200'))).toBe('456 OAK AVE STE 200');
    expect(formatStreetLine(parseStreet('Apt 1B 626 East Kilbourn Avenue'))).toBe('626 E KILBOURN AVE APT 1B');
    expect(formatStreetLine(parseStreet('100 Front St Rear'))).toBe('100 FRONT ST REAR');
    expect(formatStreetLine(parseStreet('203 N Wabash 608'))).toBe('203 N WABASH 608');
    expect(formatStreetLine(parseStreet('P.O. Box 42'))).toBe('PO BOX 42');
    expect(formatStreetLine(parseStreet('Dept 3234 PO Box 123234'))).toBe('PO BOX 123234 DEPT 3234');
  });

  it('reads back as the same parts', () => {
    for (const line of [
      '123 North Main Street Apartment 4',
      '48S 400E',
      'RR 2 Box 152',
      '4922 B South Cornell Ave',
      '1114 Avenue of the Americas 27th Fl',
      '12 1/2 Main St #3',
    ]) {
      const p = parseStreet(line);
      expect(parseStreet(formatStreetLine(p))).toEqual(p);
    }
  });
});
