import { describe, expect, it } from 'vitest';
import { parseStreet } from './parse-street.js';

describe('parseStreet: suffixes and directionals (Publication 28 C1, section 233)', () => {
  it.each([
    ['123 Main Street', { number: '123', name: 'MAIN', suffix: 'ST' }],
    ['123 Main St.', { number: '123', name: 'MAIN', suffix: 'ST' }],
    ['123 MAIN STR', { number: '123', name: 'MAIN', suffix: 'ST' }],
    ['123 main strt', { number: '123', name: 'MAIN', suffix: 'ST' }],
    ['9 Elm Avenue', { number: '9', name: 'ELM', suffix: 'AVE' }],
    ['9 Elm Aven', { number: '9', name: 'ELM', suffix: 'AVE' }],
    ['9 Elm Av', { number: '9', name: 'ELM', suffix: 'AVE' }],
    ['10144 Potters Hatch Common', { number: '10144', name: 'POTTERS HATCH', suffix: 'CMN' }],
    ['905 Laing Crossroads', { number: '905', name: 'LAING', suffix: 'XRDS' }],
    ['1 Meadow Ln', { number: '1', name: 'MEADOW', suffix: 'LN' }],
  ])('%s', (line, expected) => {
    expect(parseStreet(line)).toEqual(expected);
  });

  it('spelled-out and dotted directionals become abbreviations, before and after the name', () => {
    expect(parseStreet('123 North Main Street')).toEqual({ number: '123', preDirectional: 'N', name: 'MAIN', suffix: 'ST' });
    expect(parseStreet('100 S.E. Washington Ave')).toEqual({ number: '100', preDirectional: 'SE', name: 'WASHINGTON', suffix: 'AVE' });
    expect(parseStreet('1005 Gravenstein Highway North')).toEqual({
      number: '1005',
      name: 'GRAVENSTEIN',
      suffix: 'HWY',
      postDirectional: 'N',
    });
    expect(parseStreet('1180 Peachtree St N.E.')).toEqual({ number: '1180', name: 'PEACHTREE', suffix: 'ST', postDirectional: 'NE' });
    expect(parseStreet('2959 Lucerne Dr S E')).toEqual({ number: '2959', name: 'LUCERNE', suffix: 'DR', postDirectional: 'SE' });
  });

  it('a directional alone before a suffix is the name', () => {
    expect(parseStreet('North Ave')).toEqual({ name: 'NORTH', suffix: 'AVE' });
    expect(parseStreet('100 South Boulevard')).toEqual({ number: '100', name: 'SOUTH', suffix: 'BLVD' });
    // …unless the suffix word is a rarer one, spelled out: then it is the name (North Wells St).
    expect(parseStreet('1520 N Wells')).toEqual({ number: '1520', preDirectional: 'N', name: 'WELLS' });
  });

  it('a suffix word inside the name stays in the name', () => {
    expect(parseStreet('10 Park Ave')).toEqual({ number: '10', name: 'PARK', suffix: 'AVE' });
    expect(parseStreet('10 Circle Dr')).toEqual({ number: '10', name: 'CIRCLE', suffix: 'DR' });
    expect(parseStreet('2146 University Square Mall')).toEqual({ number: '2146', name: 'UNIVERSITY SQUARE', suffix: 'MALL' });
    expect(parseStreet('5 Street')).toEqual({ number: '5', name: 'STREET' });
  });

  it('a directional written before the suffix is the post-directional; a grid number keeps it', () => {
    expect(parseStreet('2110 Saint John W St')).toEqual({ number: '2110', name: 'SAINT JOHN', suffix: 'ST', postDirectional: 'W' });
    expect(parseStreet('2928 N 2900 E Road')).toEqual({ number: '2928', preDirectional: 'N', name: '2900 E', suffix: 'RD' });
  });

  it('Salt Lake City grid addresses, glued or not', () => {
    expect(parseStreet('550 S 400 E')).toEqual({ number: '550', preDirectional: 'S', name: '400', postDirectional: 'E' });
    expect(parseStreet('48S 400E')).toEqual({ number: '48', preDirectional: 'S', name: '400', postDirectional: 'E' });
  });
});

describe('parseStreet: names', () => {
  it('upper-cases, drops punctuation and collapses spaces', () => {
    expect(parseStreet("  12  o'neil   st. ")).toEqual({ number: '12', name: 'ONEIL', suffix: 'ST' });
    expect(parseStreet('7 Wilkes-Barre Blvd')).toEqual({ number: '7', name: 'WILKES BARRE', suffix: 'BLVD' });
    expect(parseStreet('5 Peace & Plenty Lane')).toEqual({ number: '5', name: 'PEACE AND PLENTY', suffix: 'LN' });
    expect(parseStreet('12 Peñasco Rd')).toEqual({ number: '12', name: 'PENASCO', suffix: 'RD' });
  });

  it('writes ordinals in digits', () => {
    expect(parseStreet('123 First Street')).toEqual({ number: '123', name: '1ST', suffix: 'ST' });
    expect(parseStreet('123 1st St')).toEqual({ number: '123', name: '1ST', suffix: 'ST' });
    expect(parseStreet('9 Twenty-First Ave')).toEqual({ number: '9', name: '21ST', suffix: 'AVE' });
    expect(parseStreet('9 Twelfth St')).toEqual({ number: '9', name: '12TH', suffix: 'ST' });
  });

  it('spells out route words (section 237) and keeps the road number in the name', () => {
    expect(parseStreet('1234 W US Hwy 50')).toEqual({ number: '1234', preDirectional: 'W', name: 'US HIGHWAY 50' });
    expect(parseStreet('36401 County Road 43')).toEqual({ number: '36401', name: 'COUNTY ROAD 43' });
    expect(parseStreet('1947 CR 2700 E')).toEqual({ number: '1947', name: 'COUNTY ROAD 2700', postDirectional: 'E' });
    expect(parseStreet('11745 I-10 W')).toEqual({ number: '11745', name: 'INTERSTATE 10', postDirectional: 'W' });
    expect(parseStreet('2855 Old Hwy 5')).toEqual({ number: '2855', name: 'OLD HIGHWAY 5' });
    expect(parseStreet('Highway 34 East')).toEqual({ name: 'HIGHWAY 34', postDirectional: 'E' });
    expect(parseStreet('1234 County Hwy 60E')).toEqual({ number: '1234', name: 'COUNTY HIGHWAY 60', postDirectional: 'E' });
  });

  it('reads every Publication 28 spelling of state, county and township roads, ST and CTY only before a number', () => {
    const forms: [string, string][] = [
      ['State Hwy 61', 'STATE HIGHWAY 61'],
      ['State Highway 61', 'STATE HIGHWAY 61'],
      ['St Hwy 61', 'STATE HIGHWAY 61'],
      ['St. Hwy. 61', 'STATE HIGHWAY 61'],
      ['SH 61', 'STATE HIGHWAY 61'],
      ['ST RT 9', 'STATE ROUTE 9'],
      ['St Rte 9', 'STATE ROUTE 9'],
      ['SR 9', 'STATE ROUTE 9'],
      ['St Rd 37', 'STATE ROAD 37'],
      ['CTY RD 5', 'COUNTY ROAD 5'],
      ['Cnty Road 5', 'COUNTY ROAD 5'],
      ['Co. Rd. 5', 'COUNTY ROAD 5'],
      ['CR 5', 'COUNTY ROAD 5'],
      ['Cty Hwy 5', 'COUNTY HIGHWAY 5'],
      ['Twp Rd 44', 'TOWNSHIP ROAD 44'],
    ];
    for (const [line, name] of forms) expect(parseStreet(`123 ${line}`), line).toEqual({ number: '123', name });
    expect(parseStreet('123 St Rd')).toEqual({ number: '123', name: 'ST', suffix: 'RD' });
    expect(parseStreet('123 Cty Rd E')).toEqual({ number: '123', name: 'CTY', suffix: 'RD', postDirectional: 'E' });
  });

  it('a lettered avenue is a name, an avenue of words keeps them', () => {
    expect(parseStreet('10810 Ave. H')).toEqual({ number: '10810', name: 'AVENUE H' });
    expect(parseStreet('3640 AVENUE E')).toEqual({ number: '3640', name: 'AVENUE E' });
    expect(parseStreet('1999 Avenue of the Stars')).toEqual({ number: '1999', name: 'AVENUE OF THE STARS' });
    expect(parseStreet('100 Avenue Rd')).toEqual({ number: '100', name: 'AVENUE', suffix: 'RD' });
  });
});

describe('parseStreet: house numbers', () => {
  it.each([
    ['123-B Main St', '123-B'],
    ['112-10 Bronx Rd', '112-10'],
    ['1600B Alameda Ave', '1600B'],
    ['12 1/2 Main St', '12 1/2'],
    ['4922 B South Cornell Avenue', '4922 B'],
    ['N165 W2123 Tartan Ct', 'N165 W2123'],
    ['N95W18855 Jay Dr', 'N95W18855'],
    ['# 2 Turner Rd', '2'],
    ['One S. Dearborn St.', 'ONE'],
  ])('%s → %s', (line, number) => {
    expect(parseStreet(line).number).toBe(number);
  });

  it('a lone letter is the name before a suffix, the start of a route, or initials', () => {
    expect(parseStreet('100 B St')).toEqual({ number: '100', name: 'B', suffix: 'ST' });
    expect(parseStreet('2964 L B J Fwy')).toEqual({ number: '2964', name: 'L B J', suffix: 'FWY' });
    expect(parseStreet('28030 E C R 850 N')).toEqual({
      number: '28030',
      preDirectional: 'E',
      name: 'COUNTY ROAD 850',
      postDirectional: 'N',
    });
  });
});

describe('parseStreet: units (Publication 28 C2)', () => {
  it.each([
    ['123 Main St Apt 4', 'APT', '4'],
    ['123 Main St Apt. 4B', 'APT', '4B'],
    ['123 Main St Apartment 4b', 'APT', '4B'],
    ['123 Main St #12', '#', '12'],
    ['123 Main St # 12', '#', '12'],
    ['123 Main St Unit 3', 'UNIT', '3'],
    ['123 Main St Ste 200', 'STE', '200'],
    ['123 Main St, Suite 200', 'STE', '200'],
    ['123 Main St Suite100', 'STE', '100'],
    ['123 Main St Fl 3', 'FL', '3'],
    ['123 Main St Floor 3', 'FL', '3'],
    ['123 Main St 3rd Floor', 'FL', '3RD'],
    ['123 Main St Second Floor', 'FL', '2ND'],
    ['123 Main St Bldg C', 'BLDG', 'C'],
    ['123 Main St Building 7', 'BLDG', '7'],
    ['123 Main St Rm 12', 'RM', '12'],
    ['123 Main St Room 12', 'RM', '12'],
    ['123 Main St Trlr 9', 'TRLR', '9'],
    ['123 Main St No. 102', '#', '102'],
    ['123 Main St Apt # 4', 'APT', '4'],
  ])('%s → %s %s', (line, unitType, unitId) => {
    expect(parseStreet(line)).toEqual({ number: '123', name: 'MAIN', suffix: 'ST', unitType, unitId });
  });

  it('designators that need no number stand alone; a range designator alone at the end too', () => {
    expect(parseStreet('100 Front St Rear')).toEqual({ number: '100', name: 'FRONT', suffix: 'ST', unitType: 'REAR' });
    expect(parseStreet('233 S Wacker Dr Lobby')).toEqual({
      number: '233',
      preDirectional: 'S',
      name: 'WACKER',
      suffix: 'DR',
      unitType: 'LBBY',
    });
    expect(parseStreet('123 Main St Apt')).toEqual({ number: '123', name: 'MAIN', suffix: 'ST', unitType: 'APT' });
  });

  it('a designator that starts the street is the street (Front St, Ste Genevieve Ave)', () => {
    expect(parseStreet('100 Front St')).toEqual({ number: '100', name: 'FRONT', suffix: 'ST' });
    expect(parseStreet('100 Ste Genevieve Ave')).toEqual({ number: '100', name: 'STE GENEVIEVE', suffix: 'AVE' });
  });

  it('a unit written first', () => {
    expect(parseStreet('Apt 1B 626 E Kilbourn Ave')).toEqual({
      number: '626',
      preDirectional: 'E',
      name: 'KILBOURN',
      suffix: 'AVE',
      unitType: 'APT',
      unitId: '1B',
    });
    expect(parseStreet('#42 233 S Wacker Dr')).toEqual({
      number: '233',
      preDirectional: 'S',
      name: 'WACKER',
      suffix: 'DR',
      unitType: '#',
      unitId: '42',
    });
    expect(parseStreet('41st Floor 1221 Ave of the Americas')).toEqual({
      number: '1221',
      name: 'AVENUE OF THE AMERICAS',
      unitType: 'FL',
      unitId: '41ST',
    });
  });

  it('several units stay together, later designators abbreviated in the id', () => {
    expect(parseStreet('9837 SW 184th St Bldg A Flr 3 Ste 222')).toEqual({
      number: '9837',
      preDirectional: 'SW',
      name: '184TH',
      suffix: 'ST',
      unitType: 'BLDG',
      unitId: 'A FL 3 STE 222',
    });
  });

  it('a number after the street with no designator is the unit, not after a route word', () => {
    expect(parseStreet('203 N Wabash 608')).toEqual({ number: '203', preDirectional: 'N', name: 'WABASH', unitId: '608' });
    expect(parseStreet('3333 Beverly Rd, B6-347B')).toEqual({ number: '3333', name: 'BEVERLY', suffix: 'RD', unitId: 'B6-347B' });
    expect(parseStreet('1234 W US Highway 50').unitId).toBeUndefined();
    expect(parseStreet('132 N 10').unitId).toBeUndefined();
  });

  it('words after the suffix that are no street are dropped', () => {
    expect(parseStreet('1850 Green Bay Road Highland')).toEqual({ number: '1850', name: 'GREEN BAY', suffix: 'RD' });
  });
});

describe('parseStreet: PO Box and rural routes (sections 24, 25, 28)', () => {
  it.each([
    ['PO Box 123', '123'],
    ['P.O. Box 123', '123'],
    ['P O Box 123', '123'],
    ['POB 123', '123'],
    ['POBox 123', '123'],
    ['Post Office Box 123', '123'],
    ['Box 123', '123'],
    ['Box # 63', '63'],
    ['PO Box X', 'X'],
  ])('%s', (line, number) => {
    expect(parseStreet(line)).toEqual({ number, name: 'PO BOX' });
  });

  it('rural route and highway contract boxes keep their route', () => {
    expect(parseStreet('RR 2 Box 152')).toEqual({ number: '152', name: 'RR 2 BOX' });
    expect(parseStreet('Rural Route 2, Box 152')).toEqual({ number: '152', name: 'RR 2 BOX' });
    expect(parseStreet('rr # 4 box 164 a')).toEqual({ number: '164 A', name: 'RR 4 BOX' });
    expect(parseStreet('HC 68 Box 23A')).toEqual({ number: '23A', name: 'HC 68 BOX' });
    expect(parseStreet('Highway Contract Route 68 Box 23A')).toEqual({ number: '23A', name: 'HC 68 BOX' });
    for (const line of [
      'RR 02 Box 152',
      'Box 152 RR 2',
      'RR 2 #152',
      'RD 2 Box 152',
      'R D 2 Box 152',
      'Rural Delivery 2 Box 152',
      'R.R. 2 Bx 152',
    ])
      expect(parseStreet(line), line).toEqual({ number: '152', name: 'RR 2 BOX' });
    expect(parseStreet('RD 2')).toEqual({ name: 'ROAD 2' });
    expect(parseStreet('PO Box 5 Rt 3')).toMatchObject({ number: '5', name: 'PO BOX' });
  });

  it('a unit of the box, before or after it', () => {
    expect(parseStreet('Dept 3234 PO Box 123234')).toEqual({ number: '123234', name: 'PO BOX', unitType: 'DEPT', unitId: '3234' });
    expect(parseStreet('PO Box 60000 File 73484')).toEqual({ number: '60000', name: 'PO BOX', unitType: 'FILE', unitId: '73484' });
  });

  it('a street with a box after it is the street; Box Elder St is a street', () => {
    expect(parseStreet('110 West Edwards P.O. Box 5000')).toEqual({ number: '110', preDirectional: 'W', name: 'EDWARDS' });
    expect(parseStreet('12 Box Elder St')).toEqual({ number: '12', name: 'BOX ELDER', suffix: 'ST' });
  });
});

describe('parseStreet: anything else', () => {
  it.each(['', '   ', '#', ',,,', '—', '\u{1F600}', '\uD800', 'null'])('%j gives a result', (line) => {
    expect(typeof parseStreet(line).name).toBe('string');
  });

  it('treats a non-string as empty', () => {
    expect(parseStreet(undefined as unknown as string)).toEqual({ name: '' });
  });
});
