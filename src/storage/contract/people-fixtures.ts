import type { NewPerson } from '../../people/person.js';

/** People prepared for a store's upsert the way the import prepares them (identity's blocking columns included). */
export { peopleBatch } from '../../identity/match/people-batch.js';

/** A complete person; `key` doubles as the default person key and email stem. */
export function newPerson(key: string, overrides: Partial<NewPerson> = {}): NewPerson {
  return {
    personKey: key,
    firstName: 'Jane',
    middleName: null,
    lastName: 'Doe',
    address: '12 Main St.',
    city: 'Springfield',
    state: 'IL',
    zip: '62701-1234',
    fields: { age: '35-44', household_income: '50k-75k', rfm_avg_dollars: 120, rfm_last_order: '2024-02-29' },
    interests: ['books', 'travel'],
    emails: [`${key}@example.com`],
    ...overrides,
  };
}
