/**
 * The name-form households (src/generate/name-form-households.ts) the identity evaluation adds to
 * the generated population: a twentieth as many households as there are people (at least 120),
 * written after the people into the file it imports, with their household ids and their variants.
 */
import type { Writable } from 'node:stream';
import { generateNameFormHouseholds, type NameFormHousehold } from '../../../src/generate/name-form-households.js';
import { generateNameFormVariants } from '../../../src/generate/name-form-variants.js';
import { generateNameVariants } from '../../../src/generate/name-variant-forms.js';
import type { GeneratedPerson } from '../../../src/generate/people.js';
import type { QueryVariant } from '../../../src/generate/query-variants.js';

export function nameFormHouseholds(options: { people: number; seed: string; today: string }): NameFormHousehold[] {
  const households = Math.max(120, Math.round(options.people / 20));
  return [...generateNameFormHouseholds({ seed: options.seed, households, today: options.today })];
}

export function nameFormPeopleCount(households: readonly NameFormHousehold[]): number {
  return households.reduce((n, h) => n + h.members.length, 0);
}

/** One NDJSON line a member, as writeDataset writes the people before them. */
export function writeNameFormPeople(out: Writable, households: readonly NameFormHousehold[]): void {
  for (const h of households) for (const m of h.members) out.write(`${JSON.stringify(m.person)}\n`);
}

export function addNameFormHouseholds(map: Map<string, string>, households: readonly NameFormHousehold[]): void {
  for (const h of households) for (const m of h.members) map.set(m.person.person_id, h.id);
}

/** The name-form variants (name-form-variants.ts), then issue 30's (name-variant-forms.ts), each on its own stream. */
export function* nameFormVariants(
  people: Iterable<GeneratedPerson>,
  households: readonly NameFormHousehold[],
  options: { seed: string; nicknames: readonly (readonly [string, string])[] },
): Generator<QueryVariant> {
  const all = Array.isArray(people) ? (people as readonly GeneratedPerson[]) : [...people];
  yield* generateNameFormVariants(all, households, options);
  yield* generateNameVariants(all, options);
}
