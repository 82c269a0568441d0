import fc from 'fast-check';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { ZipcodesPlace } from 'zipcodes';
import {
  cityNotInState,
  INVALID_STATE,
  INVALID_ZIP,
  MISSING_POSTAL,
  shown,
  zipNotFound,
  zipNotInCity,
  zipNotInState,
} from './postal-reasons.js';
import { checkPostal, cityOfZip, stateOfZip, zip5sFor } from './zip-reference.js';

const packageCodes = (createRequire(import.meta.url)('zipcodes') as { codes: Record<string, ZipcodesPlace> }).codes;

describe('checkPostal with a ZIP', () => {
  it('accepts a real ZIP with its city and state, and answers with the reference', () => {
    expect(checkPostal({ zip: '10001', city: 'New York', state: 'NY' })).toEqual({
      ok: true,
      zip5: '10001',
      city: 'New York',
      state: 'NY',
    });
    expect(checkPostal({ zip: '90210', city: 'Beverly Hills', state: 'CA' })).toEqual({
      ok: true,
      zip5: '90210',
      city: 'Beverly Hills',
      state: 'CA',
    });
    expect(checkPostal({ zip: '77380', city: 'Spring', state: 'TX' })).toMatchObject({ ok: true, zip5: '77380', city: 'Spring' });
  });

  it('accepts a ZIP alone, or with only one of city and state', () => {
    expect(checkPostal({ zip: '10001' })).toEqual({ ok: true, zip5: '10001', city: 'New York', state: 'NY' });
    expect(checkPostal({ zip: '10001', state: 'ny' })).toMatchObject({ ok: true, state: 'NY' });
    expect(checkPostal({ zip: '10001', city: 'new york' })).toMatchObject({ ok: true });
  });

  it('reads ZIP+4 with or without the dash', () => {
    expect(checkPostal({ zip: '10001-1234', state: 'NY' })).toEqual({
      ok: true,
      zip5: '10001',
      plus4: '1234',
      city: 'New York',
      state: 'NY',
    });
    expect(checkPostal({ zip: '100011234' })).toMatchObject({ ok: true, zip5: '10001', plus4: '1234' });
    expect(checkPostal({ zip: ' 10001 ' })).toMatchObject({ ok: true, zip5: '10001' });
  });

  it('keeps leading zeros and covers territories', () => {
    expect(checkPostal({ zip: '02134', city: 'Allston', state: 'MA' })).toMatchObject({ ok: true });
    expect(checkPostal({ zip: '00601', city: 'Adjuntas', state: 'PR' })).toMatchObject({ ok: true });
  });

  it.each(['1234', '123456', '12345-67', '12345-', 'abcde', '1234a', '12345-6789-0', '12 345', 'T0A', 'K1A 0B1'])(
    'refuses the malformed zip %j',
    (zip) => {
      expect(checkPostal({ zip })).toEqual({ ok: false, reason: INVALID_ZIP });
    },
  );

  it('refuses a ZIP that does not exist', () => {
    expect(checkPostal({ zip: '00000' })).toEqual({ ok: false, reason: 'ZIP code 00000 does not exist' });
    expect(checkPostal({ zip: '00000-1234', city: 'Nowhere', state: 'NY' })).toEqual({ ok: false, reason: zipNotFound('00000') });
  });

  it('refuses a ZIP in another state', () => {
    expect(checkPostal({ zip: '10001', state: 'CA' })).toEqual({ ok: false, reason: 'ZIP code 10001 is not in state CA' });
    expect(checkPostal({ zip: '10001', city: 'New York', state: 'ca' })).toEqual({ ok: false, reason: zipNotInState('10001', 'CA') });
  });

  it('refuses a ZIP that does not match the city', () => {
    expect(checkPostal({ zip: '90210', city: 'San Francisco', state: 'CA' })).toEqual({
      ok: false,
      reason: 'ZIP code 90210 does not match city San Francisco',
    });
    expect(checkPostal({ zip: '10001', city: '!!!' })).toEqual({ ok: false, reason: zipNotInCity('10001', '!!!') });
  });

  it('refuses a state that is not two letters', () => {
    expect(checkPostal({ zip: '77380', state: 'Texas' })).toEqual({ ok: false, reason: INVALID_STATE });
    expect(checkPostal({ zip: '77380', state: 'ß' })).toEqual({ ok: false, reason: INVALID_STATE });
  });
});

describe('checkPostal: city spellings', () => {
  it.each([
    ['63101', 'St. Louis', 'MO'],
    ['63101', 'ST LOUIS', 'MO'],
    ['63101', 'saint louis', 'mo'],
    ['33301', 'Ft Lauderdale', 'FL'],
    ['33301', 'Ft. Lauderdale', 'FL'],
    ['10550', 'Mt Vernon', 'NY'],
    ['83814', "Coeur d'Alene", 'ID'],
    ['75069', 'McKinney', 'TX'],
    ['90210', '  beverly   HILLS ', 'CA'],
  ])('%s %s %s is accepted', (zip, city, state) => {
    expect(checkPostal({ zip, city, state })).toMatchObject({ ok: true, zip5: zip });
  });
});

describe('checkPostal: another city of the same sectional centre', () => {
  it('accepts the reference city of another ZIP with the same first three digits in the same state', () => {
    // 77380 is filed under Spring; Conroe is the city of 77301–77306 and 77384–77385.
    expect(checkPostal({ zip: '77380', city: 'Conroe', state: 'TX' })).toEqual({ ok: true, zip5: '77380', city: 'Spring', state: 'TX' });
    // 90210 (Beverly Hills) and 90245 (El Segundo) share 902.
    expect(checkPostal({ zip: '90210', city: 'El Segundo', state: 'CA' })).toMatchObject({ ok: true, city: 'Beverly Hills' });
  });

  it('refuses a city of another sectional centre', () => {
    // Houston's ZIPs start 770–772.
    expect(checkPostal({ zip: '77380', city: 'Houston', state: 'TX' })).toEqual({ ok: false, reason: zipNotInCity('77380', 'Houston') });
  });

  it('known gap: a city name no ZIP is filed under (The Woodlands, TX) is refused', () => {
    // The package files every ZIP of The Woodlands under Spring and has no entry named The
    // Woodlands, so the rule has nothing to match; see data-source.md.
    expect(checkPostal({ zip: '77380', city: 'The Woodlands', state: 'TX' })).toEqual({
      ok: false,
      reason: 'ZIP code 77380 does not match city The Woodlands',
    });
  });
});

describe('checkPostal without a ZIP', () => {
  it('accepts a city and state the reference holds, answering with its spelling', () => {
    expect(checkPostal({ city: 'Beverly Hills', state: 'CA' })).toEqual({ ok: true, city: 'Beverly Hills', state: 'CA' });
    expect(checkPostal({ city: 'St. Louis', state: 'mo' })).toEqual({ ok: true, city: 'Saint Louis', state: 'MO' });
    expect(checkPostal({ zip: '', city: 'New York', state: 'NY' })).toMatchObject({ ok: true });
  });

  it('refuses a city the state does not have', () => {
    expect(checkPostal({ city: 'Gotham', state: 'NY' })).toEqual({ ok: false, reason: 'City Gotham not found in state NY' });
    expect(checkPostal({ city: 'Beverly Hills', state: 'ny' })).toEqual({ ok: false, reason: cityNotInState('Beverly Hills', 'NY') });
    expect(checkPostal({ city: 'Beverly Hills', state: 'ZZ' })).toEqual({ ok: false, reason: cityNotInState('Beverly Hills', 'ZZ') });
  });

  it('needs both city and state', () => {
    expect(checkPostal({})).toEqual({ ok: false, reason: MISSING_POSTAL });
    expect(checkPostal({ city: 'Boston' })).toEqual({ ok: false, reason: MISSING_POSTAL });
    expect(checkPostal({ state: 'MA' })).toEqual({ ok: false, reason: MISSING_POSTAL });
    expect(checkPostal({ zip: '  ', city: ' ', state: 'MA' })).toEqual({ ok: false, reason: MISSING_POSTAL });
  });
});

describe('reasons', () => {
  it('have stable texts', () => {
    expect(INVALID_ZIP).toBe('Invalid zip');
    expect(INVALID_STATE).toBe('Invalid state');
    expect(MISSING_POSTAL).toBe('Give a ZIP code, or a city and a state');
    expect(zipNotFound('00000')).toBe('ZIP code 00000 does not exist');
    expect(zipNotInState('10001', 'CA')).toBe('ZIP code 10001 is not in state CA');
    expect(zipNotInCity('90210', 'Boston')).toBe('ZIP code 90210 does not match city Boston');
    expect(cityNotInState('Gotham', 'NY')).toBe('City Gotham not found in state NY');
  });

  it('show the caller’s city tidied and capped', () => {
    expect(shown('  New\n  York\u0007 ')).toBe('New York');
    expect(shown('New\nYork')).toBe('New York');
    expect([...shown('x'.repeat(500))]).toHaveLength(60);
  });
});

describe('lookups', () => {
  it('stateOfZip and cityOfZip', () => {
    expect(stateOfZip('10001')).toBe('NY');
    expect(cityOfZip('77380')).toBe('Spring');
    expect(stateOfZip('00000')).toBeUndefined();
    expect(cityOfZip('1000')).toBeUndefined();
    expect(stateOfZip('constructor')).toBeUndefined();
    expect(stateOfZip('__proto__')).toBeUndefined();
  });

  it('zip5sFor lists a city’s ZIPs, sorted', () => {
    expect(zip5sFor('Beverly Hills', 'CA')).toEqual(['90209', '90210', '90211', '90212', '90213']);
    expect(zip5sFor('st louis', 'mo')).toContain('63101');
    expect(zip5sFor('Beverly Hills', 'NY')).toEqual([]);
    expect(zip5sFor('', 'CA')).toEqual([]);
    expect(zip5sFor('Beverly Hills', 'California')).toEqual([]);
  });

  it('returns a copy callers may change', () => {
    zip5sFor('Beverly Hills', 'CA').pop();
    expect(zip5sFor('Beverly Hills', 'CA')).toHaveLength(5);
  });
});

describe('the whole reference', () => {
  const entries = Object.values(packageCodes);

  it('leaves Canadian entries out', () => {
    const canadian = entries.filter((p) => p.country !== 'US');
    expect(canadian.length).toBeGreaterThan(1000);
    for (const p of canadian) {
      expect(checkPostal({ zip: p.zip }).ok).toBe(false);
      expect(stateOfZip(p.zip)).toBeUndefined();
      expect(zip5sFor(p.city, p.state)).toEqual([]);
    }
  });

  it('accepts every US ZIP with its own city and state, and lists it under them', () => {
    const us = entries.filter((p) => p.country === 'US');
    expect(us.length).toBeGreaterThan(40_000);
    for (const p of us) {
      const checked = checkPostal({ zip: p.zip, city: p.city, state: p.state });
      if (!checked.ok) expect.fail(`${p.zip} ${p.city} ${p.state}: ${checked.reason}`);
      if (!zip5sFor(p.city, p.state).includes(p.zip)) expect.fail(`${p.city} ${p.state} lacks ${p.zip}`);
    }
  });
});

describe('checkPostal: properties', () => {
  const text = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.constantFrom('10001', '77380-1234', '900000000', 'NY', 'TX', 'Spring'),
  );
  const digits = fc.string({ unit: fc.constantFrom(...'0123456789-'.split('')), minLength: 5, maxLength: 10 });

  it('never throws, and answers ok or a non-empty reason', () => {
    fc.assert(
      fc.property(fc.record({ zip: fc.oneof(text, digits), city: text, state: text }, { requiredKeys: [] }), (q) => {
        const checked = checkPostal(q);
        if (checked.ok) {
          if (checked.zip5 !== undefined) expect(checked.zip5).toMatch(/^\d{5}$/);
          expect(checked.state).toMatch(/^[A-Z]{2}$/);
        } else {
          expect(checked.reason).not.toBe('');
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on values outside its type', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), fc.anything(), (zip, city, state) => {
        expect(() => checkPostal({ zip, city, state } as never)).not.toThrow();
        expect(() => checkPostal(zip as never)).not.toThrow();
        expect(() => zip5sFor(city as never, state as never)).not.toThrow();
      }),
    );
  });

  it('a valid ZIP is accepted or refused for existence only', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999 }), (n) => {
        const zip = String(n).padStart(5, '0');
        const checked = checkPostal({ zip });
        expect(checked.ok ? '' : checked.reason).toBe(stateOfZip(zip) === undefined ? zipNotFound(zip) : '');
      }),
      { numRuns: 2000 },
    );
  });
});
