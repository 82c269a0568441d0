import { describe, expect, it } from 'vitest';
import type { PersonRecord } from '../../people/person.js';
import { cachedPersonFeatures, personFeatures, queryFeatures } from './features.js';

const person: PersonRecord = {
  id: 7,
  personKey: 'P7',
  firstName: 'Kate',
  middleName: null,
  lastName: "O'Brien Jr.",
  address: '12 North Main Street Apt 4',
  city: 'St. Louis',
  state: 'mo',
  zip: '63101-1234',
  fields: {},
  interests: [],
  emails: ['kate@example.com'],
};

describe('identity features', () => {
  it('normalise a query and a stored person the same way', () => {
    const q = queryFeatures({ first: 'KATE', last: 'OBrien', street: '12 N Main St #4', city: 'Saint Louis', state: 'MO', zip: '63101' });
    const p = personFeatures(person);
    expect(p).toMatchObject({
      first: 'kate',
      last: 'obrien',
      suffix: 'jr',
      city: 'SAINT LOUIS',
      state: 'MO',
      zip5: '63101',
      plus4: '1234',
    });
    expect(q.last).toBe(p.last);
    expect(q.city).toBe(p.city);
    expect(q.lastPhonetic).toBe(p.lastPhonetic);
    expect(q.street).toMatchObject({ number: '12', preDirectional: 'N', name: 'MAIN', suffix: 'ST', unitId: '4' });
    expect(p.street).toMatchObject({ number: '12', preDirectional: 'N', name: 'MAIN', suffix: 'ST', unitId: '4' });
  });

  it('remember a person until their name or address changes, with their current emails', () => {
    const features = cachedPersonFeatures(2);
    const first = features(person);
    expect(features({ ...person, emails: ['new@example.com'] })).toEqual({ ...first, emails: ['new@example.com'] });
    expect(features({ ...person, address: '40 Elm St' }).street).toMatchObject({ number: '40', name: 'ELM' });
    expect(features(person).street).toMatchObject({ number: '12' });
  });
});
