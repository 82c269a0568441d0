import { describe, expect, it } from 'vitest';
import type { PersonRecord } from '../../people/person.js';
import type { CandidateBlock } from './candidate-block.js';
import { personFeatures } from './features.js';
import { createIdentityMatcher } from './identity-matcher.js';
import type { IdentityQuery } from './types.js';

let nextId = 0;
function person(first: string, last: string, address: string, zip: string, city = 'Springfield', state = 'IL'): PersonRecord {
  const id = ++nextId;
  return {
    ...{ id, personKey: `P${id}`, firstName: first, middleName: null, lastName: last, address, city, state, zip },
    ...{ fields: {}, interests: [], emails: [`p${id}@example.com`] },
  };
}

/** A store that answers the blocks by scanning: the matcher's behaviour, not the index, is under test. */
function matcherOver(people: PersonRecord[]) {
  const asked: CandidateBlock[][] = [];
  const matcher = createIdentityMatcher({
    people: {
      async findCandidates(blocks) {
        asked.push([...blocks]);
        return people.filter((p) => {
          const f = personFeatures(p);
          return blocks.some((b) =>
            b.kind === 'zip-house'
              ? f.zip5 === b.zip5 && f.street?.number === b.houseNumber
              : b.kind === 'phonetic-zip'
                ? f.zip5 === b.zip5 && f.lastPhonetic === b.lastPhonetic
                : f.state === b.state && f.street?.number === b.houseNumber,
          );
        });
      },
    },
  });
  return { matcher, asked };
}

const query = (q: Partial<IdentityQuery>): IdentityQuery => ({
  first: 'Ann',
  last: 'Berg',
  street: '12 Oak St',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  ...q,
});
const answer = async (people: PersonRecord[], q: Partial<IdentityQuery>) =>
  (await matcherOver(people).matcher.match(query(q))).map((m) => [m.person.personKey, m.type]);

describe('ZIP correction within a city', () => {
  const ann = person('Ann', 'Berg', '12 Oak St', '62702-1111');
  const joe = person('Joseph', 'Berg', '12 Oak St', '62702-1111');

  it('finds the address in the one other ZIP of the city that holds it: Individual with the exact name', async () => {
    expect(await answer([ann, joe], {})).toEqual([
      [ann.personKey, 'Individual'],
      [joe.personKey, 'Household'],
    ]);
  });

  it('gives the household only for a weaker name through a corrected ZIP', async () => {
    expect(await answer([ann, joe], { first: 'Anne' })).toEqual([
      [ann.personKey, 'Household'],
      [joe.personKey, 'Household'],
    ]);
    expect(await answer([person('Joseph', 'Berg', '12 Oak St', '62702')], { first: 'Joe' })).toEqual([[expect.any(String), 'Household']]);
  });

  it('takes the city of the ZIP given when the query names none', async () => {
    expect(await answer([ann], { city: undefined, state: undefined })).toEqual([[ann.personKey, 'Individual']]);
  });

  it('makes no guess when two other ZIPs of the city hold the address', async () => {
    expect(await answer([ann, person('Ann', 'Berg', '12 Oak St', '62703')], {})).toEqual([]);
  });

  it('is not tried when somebody is held at the address in the ZIP given, nor across cities or states', async () => {
    const here = person('Rita', 'Roe', '12 Oak St', '62701');
    expect(await answer([ann, here], {})).toEqual([]);
    expect(await answer([person('Ann', 'Berg', '12 Oak St', '55033', 'Hastings', 'MN')], {})).toEqual([]);
    expect(await answer([ann], { city: 'Chicago', zip: '60601' })).toEqual([]);
  });

  it('asks the store a second time only for the queries that found nobody at their address', async () => {
    const { matcher, asked } = matcherOver([ann, joe, person('Rita', 'Roe', '40 Elm St', '62701')]);
    const answers = await matcher.matchMany([query({ first: 'Rita', last: 'Roe', street: '40 Elm St' }), query({})]);
    expect(answers.map((a) => a.map((m) => m.type))).toEqual([['Individual'], ['Individual', 'Household']]);
    expect(asked).toHaveLength(2);
    expect(asked[1]!.every((b) => b.kind === 'zip-house' && b.houseNumber === '12' && b.zip5 !== '62701')).toBe(true);
    expect((await matcherOver([ann]).matcher.matchMany([query({ first: 'Rita', last: 'Roe', street: '40 Elm St' })]))[0]).toEqual([]);
  });
});
