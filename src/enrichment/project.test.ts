import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EamObject } from './activity-metrics.js';
import { EAM_FIELDS, PERSON_FIELDS } from '../people/field-names.js';
import type { FieldSelection } from './field-selection.js';
import type { PersonPostal } from '../people/person.js';
import { personRecord, prepareRecord } from '../people/prepared-record.js';
import { answerFor, EMPTY_ANSWER } from './project.js';

const person = {
  zip: '78701-1234',
  fields: { age: '25-34', gender: 'Female', rfm_avg_dollars: 120, education: '' },
  interests: ['pets', 'travel'],
};
const postal: PersonPostal = { firstName: 'Jane', lastName: 'Doe', address: '1 Main St', city: 'Austin', state: 'TX', zip: '78701-1234' };
const eam: EamObject = { date_first_seen: '2025-01-02', longevity: 3, velocity: 1, popularity: 2, month_last_open: '2026-10' };
const everything: FieldSelection = { record: [...PERSON_FIELDS], eam: [...EAM_FIELDS], postalAddress: true };

describe('enrichment answers', () => {
  it('append eam and the postal address after the person fields, and count every top-level field', () => {
    const answer = answerFor(prepareRecord(person), postal, eam, everything);
    expect(Object.keys(JSON.parse(answer.json))).toEqual(['age', 'gender', 'zip', 'rfm_avg_dollars', 'interests', 'eam', 'postal_address']);
    expect(JSON.parse(answer.json).postal_address).toEqual({
      first_name: 'Jane',
      last_name: 'Doe',
      address: '1 Main St',
      city: 'Austin',
      state: 'TX',
      zip: '78701-1234',
    });
    expect(answer.fields).toBe(7);
  });

  it('answer {} for no match and for a selection the person has nothing in', () => {
    expect(answerFor(undefined, undefined, undefined, everything)).toBe(EMPTY_ANSWER);
    expect(
      answerFor(prepareRecord(person), undefined, undefined, { record: ['education', 'occupation'], eam: [], postalAddress: false }),
    ).toEqual({ json: '{}', fields: 0 });
  });

  it('give eam alone for an unmatched address when eam is selected', () => {
    const unseen: EamObject = { date_first_seen: 'now', longevity: 0, velocity: 0, popularity: 0 };
    expect(answerFor(undefined, undefined, unseen, everything)).toEqual({
      json: '{"eam":{"date_first_seen":"now","longevity":0,"velocity":0,"popularity":0}}',
      fields: 1,
    });
  });

  it('equal the field-by-field projection for every selection', () => {
    const field = fc.constantFrom(...PERSON_FIELDS);
    fc.assert(
      fc.property(
        fc.uniqueArray(field),
        fc.uniqueArray(fc.constantFrom(...EAM_FIELDS)),
        fc.boolean(),
        fc.boolean(),
        (picked, eamPicked, withPostal, matched) => {
          // Selections list fields in the reference order (field-selection.ts filters PERSON_FIELDS).
          const selection: FieldSelection = {
            record: PERSON_FIELDS.filter((f) => picked.includes(f)),
            eam: EAM_FIELDS.filter((f) => eamPicked.includes(f)),
            postalAddress: withPostal,
          };
          const answer = answerFor(matched ? prepareRecord(person) : undefined, matched ? postal : undefined, eam, selection);
          const expected: Record<string, unknown> = matched ? personRecord(person, selection.record) : {};
          if (selection.eam.length > 0) expected.eam = Object.fromEntries(selection.eam.map((s) => [s, eam[s as keyof EamObject]]));
          if (matched && withPostal)
            expected.postal_address = JSON.parse(
              answerFor(undefined, postal, undefined, { record: [], eam: [], postalAddress: true }).json,
            ).postal_address;
          expect(answer.json).toBe(JSON.stringify(expected));
          expect(answer.fields).toBe(Object.keys(expected).length);
        },
      ),
    );
  });
});
