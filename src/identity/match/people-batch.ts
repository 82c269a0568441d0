/**
 * People as a people store's `upsert` takes them, with identity's blocking columns: the one
 * prepare path every writer of people takes (the import, the demo loader, the storage contract's
 * fixtures and the tests), so that neither a caller nor a store computes blocking columns its own
 * way. The person model (people/person-row.ts) does not import the matcher; this is where the two meet.
 */
import type { PeopleBatch } from '../../people/people-store.js';
import type { NewPerson } from '../../people/person.js';
import { preparePeople } from '../../people/person-row.js';
import { personBlockingColumns } from './blocking.js';

export function peopleBatch(people: readonly NewPerson[]): PeopleBatch {
  return preparePeople(people, personBlockingColumns);
}
