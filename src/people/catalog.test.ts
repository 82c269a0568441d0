import { describe, expect, it } from 'vitest';
import { CATALOG, INTERESTS, LENGTHS_OF_RESIDENCE } from './catalog.js';

describe('catalog', () => {
  it('holds the list sizes the api-reference gives', () => {
    expect(CATALOG.occupation).toHaveLength(17);
    expect(CATALOG.life_stage_segment).toHaveLength(70);
    expect(CATALOG.life_stage_group).toHaveLength(21);
    expect(CATALOG.financial_segment).toHaveLength(54);
    expect(CATALOG.financial_group).toHaveLength(13);
    expect(INTERESTS).toHaveLength(22);
    expect(CATALOG.household_income).toHaveLength(11);
    expect(CATALOG.net_worth).toHaveLength(9);
    expect(CATALOG.home_market_value).toHaveLength(12);
    expect(CATALOG.education).toHaveLength(5);
    expect(CATALOG.age).toHaveLength(7);
  });

  it('spells values as the reference does', () => {
    expect(LENGTHS_OF_RESIDENCE).toEqual([
      'Less than 1 year',
      '1 Year',
      '2 Years',
      '3 Years',
      '4 Years',
      '5 Years',
      '6 Years',
      '7 Years',
      '8 Years',
      '9 Years',
      '10 Years',
      '11-15 years',
      '16-19 years',
      '20+ years',
    ]);
    expect(CATALOG.occupation).toContain('Executive/Upper Management');
    expect(CATALOG.life_stage_segment).toContain('Active & Involved');
    expect(CATALOG.financial_segment?.[53]).toBe('Independent Investors');
    expect(INTERESTS[0]).toBe('arts_and_crafts');
    expect(INTERESTS[21]).toBe('travel');
  });
});
