/** People that tests store: Kate, whose email, name and address match one another in enrichment, append and lists. */
import type { NewPerson } from '../../src/people/person.js';

export { peopleBatch } from '../../src/storage/contract/people-fixtures.js';

export const kate: NewPerson = {
  personKey: 'P1',
  firstName: 'Katherine',
  middleName: null,
  lastName: 'Doe',
  address: '123 N Main St',
  city: 'Springfield',
  state: 'IL',
  zip: '62701-1234',
  fields: { age: '35-44', gender: 'Female' },
  interests: ['books'],
  emails: ['kate@example.com'],
};
