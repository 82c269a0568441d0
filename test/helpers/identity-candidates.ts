/**
 * Candidates for the identity scorer's tests, built by hand: everyone at 12 Oak St, Springfield IL
 * 62701, so that only the names decide.
 */
import type { IdentityFeatures } from '../../src/identity/match/features.js';
import { normalizePersonName, surnameGroups } from '../../src/identity/name/index.js';
import type { PersonRecord } from '../../src/people/person.js';

/** A stored person with this id (and first name, for reading a ranking); the rest fixed. */
export function oakStreetPerson(id: number, firstName = `First${id}`): PersonRecord {
  return {
    id,
    personKey: `P${id}`,
    firstName,
    middleName: null,
    lastName: 'Doe',
    address: '12 Oak St',
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
    fields: {},
    interests: [],
    emails: [],
  };
}

/** Scorer features of a person at 12 Oak St from raw name parts, as the matcher normalises them. */
export function oakStreetFeatures(first: string, middle = '', last = 'Smith', emails: string[] = []): IdentityFeatures {
  const name = normalizePersonName({ first, middle, last });
  return {
    first: name.first,
    middle: name.middle,
    last: name.last,
    lastGroups: surnameGroups(last),
    suffix: name.suffix ?? '',
    lastPhonetic: 'SM0',
    street: { number: '12', name: 'OAK', suffix: 'ST' },
    city: 'SPRINGFIELD',
    state: 'IL',
    zip5: '62701',
    plus4: '',
    emails,
  };
}
