/**
 * The address-form households (src/generate/address-form-households.ts) the identity evaluation
 * adds to the generated population: a twentieth as many households as there are people (at least
 * 100), written after the people into the file it imports, with their household ids and variants.
 */
import type { Writable } from 'node:stream';
import { generateAddressFormHouseholds, type AddressFormHousehold } from '../../../src/generate/address-form-households.js';
import { generateAddressFormVariants } from '../../../src/generate/address-form-variants.js';
import type { QueryVariant } from '../../../src/generate/query-variants.js';

export function addressFormHouseholds(options: { people: number; seed: string; today: string }): AddressFormHousehold[] {
  const households = Math.max(100, Math.round(options.people / 20));
  return [...generateAddressFormHouseholds({ seed: options.seed, households, today: options.today })];
}

export function addressFormPeopleCount(households: readonly AddressFormHousehold[]): number {
  return households.reduce((n, h) => n + h.members.length, 0);
}

/** One NDJSON line a member. */
export function writeAddressFormPeople(out: Writable, households: readonly AddressFormHousehold[]): void {
  for (const h of households) for (const m of h.members) out.write(`${JSON.stringify(m.person)}\n`);
}

export function addAddressFormHouseholds(map: Map<string, string>, households: readonly AddressFormHousehold[]): void {
  for (const h of households) for (const m of h.members) map.set(m.person.person_id, h.id);
}

export function addressFormVariants(households: readonly AddressFormHousehold[], options: { seed: string }): Generator<QueryVariant> {
  return generateAddressFormVariants(households, options);
}
