import { describe, expect, it } from 'vitest';
import { parseUsAddress } from './parse-us-address.js';

describe('parseUsAddress', () => {
  it('splits street, city, state and ZIP with commas', () => {
    expect(parseUsAddress('1005 N Gravenstein Highway, Suite 500, Sebastopol, CA 95472-1234')).toEqual({
      number: '1005',
      preDirectional: 'N',
      name: 'GRAVENSTEIN',
      suffix: 'HWY',
      unitType: 'STE',
      unitId: '500',
      city: 'SEBASTOPOL',
      state: 'CA',
      zip5: '95472',
      plus4: '1234',
    });
  });

  it('splits them without commas, using the ZIP reference for the city', () => {
    expect(parseUsAddress('10502 shadow ridge ln apt 103 louisville ky 40241')).toEqual({
      number: '10502',
      name: 'SHADOW RIDGE',
      suffix: 'LN',
      unitType: 'APT',
      unitId: '103',
      city: 'LOUISVILLE',
      state: 'KY',
      zip5: '40241',
    });
    expect(parseUsAddress('6641 N 2200 W Apt D304 Park City UT 84098')).toMatchObject({
      name: '2200',
      postDirectional: 'W',
      unitId: 'D304',
      city: 'PARK CITY',
      state: 'UT',
    });
    expect(parseUsAddress('31 Willow Hill Saint Louis MO 631242055')).toMatchObject({
      name: 'WILLOW',
      suffix: 'HL',
      city: 'SAINT LOUIS',
      zip5: '63124',
      plus4: '2055',
    });
    expect(parseUsAddress('36625 us highway 19 n palm harbor fl 34684')).toMatchObject({
      name: 'US HIGHWAY 19',
      postDirectional: 'N',
      city: 'PALM HARBOR',
      state: 'FL',
    });
  });

  it('writes the city in USPS form and the state as its code', () => {
    expect(parseUsAddress('12855 6th Ave, N. Miami, Florida 33161')).toMatchObject({ city: 'NORTH MIAMI', state: 'FL', zip5: '33161' });
    expect(parseUsAddress('1 Main St, St. Louis, MO')).toMatchObject({ city: 'SAINT LOUIS', state: 'MO' });
    expect(parseUsAddress('1 Main St, Ft Worth, TX')).toMatchObject({ city: 'FORT WORTH', state: 'TX' });
    expect(parseUsAddress('1585 Broadway, New York, NY 10036')).toMatchObject({
      number: '1585',
      name: 'BROADWAY',
      city: 'NEW YORK',
      state: 'NY',
    });
  });

  it('reads the ZIP forms people write', () => {
    expect(parseUsAddress('233 S Wacker Dr 60606-6306')).toMatchObject({ zip5: '60606', plus4: '6306' });
    expect(parseUsAddress('233 S Wacker Dr 606066306')).toMatchObject({ zip5: '60606', plus4: '6306' });
    expect(parseUsAddress('233 S Wacker Dr 60606 6306')).toMatchObject({ zip5: '60606', plus4: '6306' });
    expect(parseUsAddress('32 N Dean St, Englewood, NJ 7631')).toMatchObject({ city: 'ENGLEWOOD', state: 'NJ', zip5: '07631' });
  });

  it('does not read a box or unit number as a ZIP', () => {
    expect(parseUsAddress('PO Box 60000')).toEqual({ number: '60000', name: 'PO BOX' });
    expect(parseUsAddress('123 Main St Apt 12345')).toEqual({
      number: '123',
      name: 'MAIN',
      suffix: 'ST',
      unitType: 'APT',
      unitId: '12345',
    });
  });

  it('keeps a state-like street word in the street when no city stands before it', () => {
    expect(parseUsAddress('1331 County Road AA NE')).toEqual({ number: '1331', name: 'COUNTY ROAD AA', postDirectional: 'NE' });
    expect(parseUsAddress('1180 Peachtree Street, NE')).toEqual({ number: '1180', name: 'PEACHTREE', suffix: 'ST', postDirectional: 'NE' });
    expect(parseUsAddress('1114 Avenue of the Americas 27th Fl')).toEqual({
      number: '1114',
      name: 'AVENUE OF THE AMERICAS',
      unitType: 'FL',
      unitId: '27TH',
    });
  });

  it('a line with only a city, state and ZIP', () => {
    expect(parseUsAddress('Columbia Falls, MT 59912')).toEqual({ name: '', city: 'COLUMBIA FALLS', state: 'MT', zip5: '59912' });
  });

  it('a city with no state after a comma or a suffix', () => {
    expect(parseUsAddress('430 Webster St, Palo Alto')).toEqual({ number: '430', name: 'WEBSTER', suffix: 'ST', city: 'PALO ALTO' });
    expect(parseUsAddress('1850 Green Bay Road Highland Park')).toMatchObject({ name: 'GREEN BAY', suffix: 'RD', city: 'HIGHLAND PARK' });
    expect(parseUsAddress('3118 Garden Walk, SW')).toEqual({ number: '3118', name: 'GARDEN', suffix: 'WALK', postDirectional: 'SW' });
  });

  it('agrees with parseStreet on a street line alone', () => {
    expect(parseUsAddress('123 North Main Street Apt 4')).toEqual({
      number: '123',
      preDirectional: 'N',
      name: 'MAIN',
      suffix: 'ST',
      unitType: 'APT',
      unitId: '4',
    });
  });
});
