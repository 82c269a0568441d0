/**
 * The name-form households of issue 30 (built by name-form-households.ts, renamed here):
 *
 * - `near-names` (trap): two members whose first names are one letter apart and two names (John
 *   and Joan, Carl and Carol): the precision rule must keep them apart;
 * - `double-first`: one member with a double first name, stored hyphenated, spaced or joined
 *   (`Mary-Jane`, `Mary Jane`, `MaryJane`).
 */
import type { Gender } from './records.js';
import type { GeneratedPerson } from './people.js';
import type { NameMaker } from './names.js';
import { editDistance, key } from './query-edits.js';
import type { Rng } from './random.js';

/** Pairs of common first names one letter apart that are two names, with their genders. */
export const NEAR_NAME_PAIRS: readonly (readonly [string, Gender, string, Gender])[] = [
  ['John', 'Male', 'Joan', 'Female'],
  ['Carl', 'Male', 'Carol', 'Female'],
  ['Eric', 'Male', 'Erica', 'Female'],
  ['Juan', 'Male', 'Jean', 'Female'],
  ['Mark', 'Male', 'Mary', 'Female'],
  ['Mario', 'Male', 'Maria', 'Female'],
  ['Julio', 'Male', 'Julia', 'Female'],
  ['Norman', 'Male', 'Norma', 'Female'],
  ['Roy', 'Male', 'Joy', 'Female'],
  ['Ross', 'Male', 'Rose', 'Female'],
  ['Tommy', 'Male', 'Tammy', 'Female'],
  ['Ronnie', 'Male', 'Bonnie', 'Female'],
  ['Jake', 'Male', 'Jade', 'Female'],
  ['Evan', 'Male', 'Eva', 'Female'],
  ['Andres', 'Male', 'Andrea', 'Female'],
  ['Daniel', 'Male', 'Daniela', 'Female'],
  ['Tina', 'Female', 'Nina', 'Female'],
  ['Diana', 'Female', 'Diane', 'Female'],
  ['Jane', 'Female', 'June', 'Female'],
  ['Holly', 'Female', 'Molly', 'Female'],
];

/** Double first names as US files carry them, with the gender they go with. */
export const DOUBLE_FIRST_NAMES: readonly (readonly [string, string, Gender])[] = [
  ['Mary', 'Jane', 'Female'],
  ['Mary', 'Ann', 'Female'],
  ['Mary', 'Beth', 'Female'],
  ['Mary', 'Kate', 'Female'],
  ['Mary', 'Lou', 'Female'],
  ['Anna', 'Marie', 'Female'],
  ['Ann', 'Marie', 'Female'],
  ['Rose', 'Marie', 'Female'],
  ['Sarah', 'Jane', 'Female'],
  ['Lee', 'Ann', 'Female'],
  ['Jo', 'Ann', 'Female'],
  ['Billy', 'Joe', 'Male'],
  ['Bobby', 'Joe', 'Male'],
  ['John', 'Paul', 'Male'],
  ['Jean', 'Luc', 'Male'],
];

/** The three ways a double first name is written. */
export const DOUBLE_FIRST_JOINS = ['-', ' ', ''] as const;

/** Written joined, only the first letter is a capital (`Maryjane`), as a file holding one word would. */
export function writeDouble(first: string, second: string, join: (typeof DOUBLE_FIRST_JOINS)[number]): string {
  return join === '' ? `${first}${second.toLowerCase()}` : `${first}${join}${second}`;
}

export function renameNearNames(members: GeneratedPerson[], rng: Rng, names: NameMaker): void {
  const [a, aGender, b, bGender] = rng.pick(NEAR_NAME_PAIRS);
  Object.assign(members[0]!.person, { first_name: a, gender: aGender });
  Object.assign(members[1]!.person, { first_name: b, gender: bGender });
  keepOthersFar(members, 2, [a, b], rng, names);
}

export function renameDoubleFirst(members: GeneratedPerson[], rng: Rng, names: NameMaker): void {
  const [first, second, gender] = rng.pick(DOUBLE_FIRST_NAMES);
  const join = rng.pick(DOUBLE_FIRST_JOINS);
  const written = writeDouble(first, second, join);
  const middle = members[0]!.person.middle_name;
  // A spaced double name beside a middle name would read as first + middle: keep the middle apart.
  const keepMiddle = middle !== undefined && middle.length > 1 && join !== ' ';
  Object.assign(members[0]!.person, { first_name: written, gender, middle_name: keepMiddle ? middle : undefined });
  keepOthersFar(members, 1, [first, second], rng, names);
}

/** Members from `from` on: first names more than two edits from the given ones and each other's. */
function keepOthersFar(members: GeneratedPerson[], from: number, given: readonly string[], rng: Rng, names: NameMaker): void {
  const taken = given.map(key);
  for (const m of members.slice(from)) {
    let first = m.person.first_name;
    for (let tries = 0; tries < 30 && taken.some((t) => editDistance(t, key(first)) <= 2); tries++)
      first = names.firstName(rng, m.person.gender);
    m.person.first_name = first;
    taken.push(key(first));
  }
}
