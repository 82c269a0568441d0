// The frozen copy agrees with the live prepareRecord today; when the live one changes on purpose,
// this test fails, and the change brings a migration that rewrites people.record (not an edit here).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PERSON_FIELDS } from '../../../people/field-names.js';
import { prepareRecord } from '../../../people/prepared-record.js';
import { prepareRecord0008 } from './0008-prepare-record.js';

describe("migration 0008's frozen prepareRecord", () => {
  it('writes what the live prepareRecord writes today', () => {
    const value = fc.oneof(fc.constantFrom('', '25-34', 'Female'), fc.integer({ min: 0, max: 999 }));
    const person = fc.record({
      zip: fc.constantFrom('', '78701', '78701-1234'),
      fields: fc.dictionary(fc.constantFrom(...PERSON_FIELDS, 'unknown'), value),
      interests: fc.array(fc.constantFrom('pets', 'travel', 'books'), { maxLength: 3 }),
    });
    fc.assert(
      fc.property(person, (p) => {
        expect(prepareRecord0008(p)).toEqual(prepareRecord(p));
      }),
    );
  });
});
