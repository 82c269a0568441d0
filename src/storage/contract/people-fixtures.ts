import { personBlockingColumns } from '../../identity/match/blocking.js';
import type { PeopleBatch } from '../../people/people-store.js';
import type { NewPerson } from '../../people/person.js';
import { preparePeople } from '../../people/person-row.js';

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

/** People prepared for a store's upsert, as the import prepares them (identity's blocking columns included). */
export function peopleBatch(people: readonly NewPerson[]): PeopleBatch {
  return preparePeople(people, personBlockingColumns);
}
