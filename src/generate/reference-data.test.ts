import { describe, expect, it } from 'vitest';
import { FINANCIAL_GROUPS, FINANCIAL_SEGMENTS, LIFE_STAGE_GROUPS, LIFE_STAGE_SEGMENTS } from '../people/catalog.js';
import { US_STATE_CODES } from '../people/us-states.js';
import { nameLists, usZipPlaces, zipReference } from './reference-data.js';
import { FINANCIAL_TABLE, LIFE_STAGE_TABLE } from './segments.js';

describe('data/us-zips.tsv', () => {
  const places = usZipPlaces();

  it('has one line per ZIP, in order, with a state code and a city', () => {
    expect(places.length).toBeGreaterThan(5000);
    expect(zipReference().size).toBe(places.length);
    expect(places.map((p) => p.zip)).toEqual([...places.map((p) => p.zip)].sort());
    for (const p of places) {
      expect(US_STATE_CODES.has(p.state)).toBe(true);
      expect(p.city).toMatch(/^[A-Z][A-Za-z]*(?: [A-Za-z]+)*$/);
    }
  });

  it('covers all 50 states and DC, several ZIPs for big cities', () => {
    expect(new Set(places.map((p) => p.state)).size).toBe(51);
    const count = (city: string, state: string) => places.filter((p) => p.city === city && p.state === state).length;
    expect(count('New York', 'NY')).toBeGreaterThan(20);
    expect(count('Los Angeles', 'CA')).toBeGreaterThan(20);
    expect(count('Chicago', 'IL')).toBeGreaterThan(20);
    expect(count('Houston', 'TX')).toBeGreaterThan(20);
  });

  it('agrees with well-known ZIP Codes', () => {
    const ref = zipReference();
    expect(ref.get('10001')).toMatchObject({ city: 'New York', state: 'NY' });
    expect(ref.get('90210')).toMatchObject({ city: 'Beverly Hills', state: 'CA' });
    expect(ref.get('60614')).toMatchObject({ city: 'Chicago', state: 'IL' });
    expect(ref.get('20500')).toBeUndefined();
    // ZIP ranges follow the states (first digit 0 = New England/NJ/PR, 9 = West Coast).
    for (const p of places) {
      if (p.zip.startsWith('9')) expect(['CA', 'OR', 'WA', 'AK', 'HI']).toContain(p.state);
      if (p.zip.startsWith('0')) expect(['MA', 'RI', 'NH', 'ME', 'VT', 'CT', 'NJ']).toContain(p.state);
    }
  });
});

describe('name lists', () => {
  const lists = nameLists();

  it('have several hundred names each, no duplicates', () => {
    for (const list of [lists.female, lists.male, lists.last]) {
      expect(list.length).toBeGreaterThan(300);
      expect(new Set(list).size).toBe(list.length);
    }
    expect(new Set(lists.streets).size).toBe(lists.streets.length);
  });

  it('never give a first name to both genders', () => {
    const male = new Set(lists.male);
    expect(lists.female.filter((n) => male.has(n))).toEqual([]);
  });

  it('hold plain names: letters, apostrophes, spaces', () => {
    for (const name of [...lists.female, ...lists.male, ...lists.last, ...lists.streets]) expect(name).toMatch(/^[A-Z][A-Za-z' ]*[a-z]$/);
  });
});

describe('segment tables', () => {
  it('map every life-stage segment once, onto every group', () => {
    expect(LIFE_STAGE_TABLE.map((e) => e.segment)).toEqual([...LIFE_STAGE_SEGMENTS]);
    expect(new Set(LIFE_STAGE_TABLE.map((e) => e.group))).toEqual(new Set(LIFE_STAGE_GROUPS));
  });

  it('map every financial segment once, onto every group', () => {
    expect(FINANCIAL_TABLE.map((e) => e.segment)).toEqual([...FINANCIAL_SEGMENTS]);
    expect(new Set(FINANCIAL_TABLE.map((e) => e.group))).toEqual(new Set(FINANCIAL_GROUPS));
  });
});
