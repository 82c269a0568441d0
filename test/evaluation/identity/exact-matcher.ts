/**
 * The baseline the identity matcher is measured against: the enrichment's exact lookup
 * (`lookupByNameAndAddress` over `PeopleStore.findByNameAndAddress`: normalised first and last name, street line, city, state,
 * ZIP5 — each only when the query has it) with every hit called Individual. It finds no Household
 * matches, and a query without a street line matches on name + city/state/ZIP alone.
 */
import { lookupByNameAndAddress } from '../../../src/people/people-plan.js';
import type { NameAddressQuery, PersonRecord } from '../../../src/people/person.js';
import type { PeopleStore } from '../../../src/people/people-store.js';
import type { IdentityMatch, IdentityMatcher, IdentityQuery } from '../../../src/identity/match/types.js';

/** The exact lookup, by the query as given (`lookupByNameAndAddress` normalises it for a store). */
export type ExactLookup = (query: NameAddressQuery) => Promise<PersonRecord[]>;

export function createExactIdentityMatcher(people: Pick<PeopleStore, 'findByNameAndAddress'> | ExactLookup): IdentityMatcher {
  const lookup: ExactLookup = typeof people === 'function' ? people : (q) => lookupByNameAndAddress(people, q);
  const match = async (query: IdentityQuery): Promise<IdentityMatch[]> => {
    const q: NameAddressQuery = { firstName: query.first, lastName: query.last };
    if (query.street?.trim()) q.address = query.street;
    if (query.city?.trim()) q.city = query.city;
    if (query.state?.trim()) q.state = query.state;
    if (query.zip?.trim()) q.zip5 = query.zip;
    // A name alone matches everyone of that name: not an identity match.
    if (q.address === undefined && q.city === undefined && q.zip5 === undefined) return [];
    return (await lookup(q)).map((person) => ({ person, type: 'Individual', confidence: 1 }));
  };
  return {
    match,
    matchMany: (queries) => Promise.all(queries.map(match)),
  };
}
