import { describe, expect, it } from 'vitest';
import type { NameAddressQuery, PersonRecord } from '../../../src/people/person.js';
import { createExactIdentityMatcher } from './exact-matcher.js';

const ann = { id: 1, personKey: 'P1' } as PersonRecord;

function store(found: PersonRecord[] = [ann]) {
  const asked: NameAddressQuery[] = [];
  return {
    asked,
    async people(q: NameAddressQuery) {
      asked.push(q);
      return found;
    },
  };
}

describe('createExactIdentityMatcher', () => {
  it('asks the store with every postal part the query has and calls each hit Individual', async () => {
    const s = store();
    const matcher = createExactIdentityMatcher(s.people);
    const matches = await matcher.match({
      first: 'Ann',
      middle: 'B',
      last: "O'Brien",
      street: '1 Main St',
      city: 'Springfield',
      state: 'il',
      zip: '62701-1234',
    });
    expect(matches).toEqual([{ person: ann, type: 'Individual', confidence: 1 }]);
    expect(s.asked).toEqual([
      { firstName: 'Ann', lastName: "O'Brien", address: '1 Main St', city: 'Springfield', state: 'il', zip5: '62701-1234' },
    ]);
  });

  it('leaves out blank parts and does not match on a name alone', async () => {
    const s = store();
    const matcher = createExactIdentityMatcher(s.people);
    expect(await matcher.match({ first: 'Ann', last: 'Lee', street: ' ', zip: '' })).toEqual([]);
    expect(s.asked).toEqual([]);
    await matcher.match({ first: 'Ann', last: 'Lee', zip: '62701-1234' });
    expect(s.asked).toEqual([{ firstName: 'Ann', lastName: 'Lee', zip5: '62701-1234' }]);
  });

  it('answers many queries in order', async () => {
    const matcher = createExactIdentityMatcher(store([]).people);
    expect(
      await matcher.matchMany([
        { first: 'A', last: 'B', zip: '62701' },
        { first: 'C', last: 'D', city: 'X' },
      ]),
    ).toEqual([[], []]);
  });
});
