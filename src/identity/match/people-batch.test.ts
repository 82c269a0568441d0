import { describe, expect, it } from 'vitest';
import { newPerson } from '../../storage/contract/people-fixtures.js';
import { personBlockingColumns } from './blocking.js';
import { peopleBatch } from './people-batch.js';

describe('peopleBatch', () => {
  it("prepares people for the store with identity's blocking columns", () => {
    const ana = newPerson('ana', { firstName: 'Ana', lastName: 'De La Cruz', address: '12 North Main Street Apt 4' });
    const batch = peopleBatch([ana, newPerson('bo', { address: 'PO Box 7' })]);
    expect(batch.rows.map((r) => r.blocking)).toEqual([
      { houseNumber: '12', lastPhonetic: 'TLKR' },
      { houseNumber: '7', lastPhonetic: personBlockingColumns(newPerson('bo')).lastPhonetic },
    ]);
    expect(batch.plan.map((r) => r.person.personKey)).toEqual(['ana', 'bo']);
  });
});
