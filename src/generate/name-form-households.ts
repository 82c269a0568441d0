/**
 * A small second population for the identity evaluation of name forms: households whose names
 * take the forms the main generator never writes, and precision traps built for those forms.
 *
 * - `compound`: everybody has a compound surname, hyphenated or spaced (`Garcia-Lopez`,
 *   `Garcia Lopez`);
 * - `particle`: a surname with particles written apart (`De La Cruz`, `Van der Berg`);
 * - `married`: the second member has a maiden and a married surname (`Smith-Jones`), the others
 *   the married one (`Jones`);
 * - `swap-pair` (trap): two people whose names swap into each other (`Scott Thomas`, `Thomas Scott`);
 * - `same-names` (trap): a parent and a child with the same first and middle names, `Sr` and `Jr`;
 * - `middle-first` (trap): a parent whose middle name is the child's first name (John Robert and
 *   Robert);
 * - `near-names` (trap) and `double-first`: see name-variant-households.ts.
 *
 * People are taken from `generatePeople` on the stream `${seed}/name-forms` (so every field an
 * import checks is a real generated value), one of each generated household, grouped here into
 * households at the first member's address, renamed, and given ids of their own (`N0000001`, households `HN000001`) and no email.
 * Their addresses come from the same ZIP and street tables as the main population's; a household
 * of both at one house number and street is possible and would show as a failure, not hide one.
 */
import { NameMaker } from './names.js';
import { householdHeads } from './household-heads.js';
import { renameDoubleFirst, renameNearNames } from './name-variant-households.js';
import type { GeneratedPerson } from './people.js';
import { editDistance, key } from './query-edits.js';
import { Rng } from './random.js';
import { nameLists } from './reference-data.js';

export const NAME_FORM_HOUSEHOLD_KINDS = [
  'compound',
  'particle',
  'married',
  'swap-pair',
  'same-names',
  'middle-first',
  'near-names',
  'double-first',
] as const;
export type NameFormHouseholdKind = (typeof NAME_FORM_HOUSEHOLD_KINDS)[number];

export interface NameFormHousehold {
  id: string;
  kind: NameFormHouseholdKind;
  members: GeneratedPerson[];
}

export interface NameFormHouseholdOptions {
  seed: string | number;
  /** Households to make, spread evenly over the kinds. */
  households: number;
  today: string;
}

/** Surnames with particles written as words, as US files carry them. */
export const PARTICLE_SURNAMES = [
  'De La Cruz',
  'De Leon',
  'De Jesus',
  'Del Rio',
  'De La Rosa',
  'De Los Santos',
  'Van Buren',
  'Van der Berg',
  'Van Dyke',
  'Von Bergen',
  'Da Silva',
  'Dos Santos',
  'St. John',
  'Le Blanc',
  'Du Bois',
  'La Fontaine',
] as const;

const SIZES: Readonly<Record<NameFormHouseholdKind, readonly [number, number]>> = {
  compound: [1, 3],
  particle: [1, 3],
  married: [2, 3],
  'swap-pair': [2, 2],
  'same-names': [2, 3],
  'middle-first': [2, 3],
  'near-names': [2, 3],
  'double-first': [1, 3],
};

const pad = (n: number) => String(n).padStart(6, '0');

export function* generateNameFormHouseholds(options: NameFormHouseholdOptions): Generator<NameFormHousehold> {
  const rng = new Rng(`${String(options.seed)}/name-forms/households`);
  const names = new NameMaker();
  const lists = nameLists();
  const surnames = new Set(lists.last);
  // Names that are both given names and surnames (Scott, Thomas, Grant…), for the swapped pair.
  const both = lists.male.filter((n) => surnames.has(n));
  // One person of each generated household, so that no two households here share an address.
  const next = householdHeads({
    count: options.households * 6 + 10,
    seed: `${String(options.seed)}/name-forms`,
    today: options.today,
    what: 'name-form',
  });
  let personCount = 0;
  for (let made = 0; made < options.households; made++) {
    const kind = NAME_FORM_HOUSEHOLD_KINDS[made % NAME_FORM_HOUSEHOLD_KINDS.length]!;
    const [min, max] = SIZES[kind];
    const size = rng.int(min, max);
    const base: GeneratedPerson[] = [];
    for (let i = 0; i < size; i++) base.push(next());
    const id = `HN${pad(made + 1)}`;
    const home = base[0]!;
    const members = base.map((m, i) => ({
      person: {
        ...m.person,
        person_id: `N${String(++personCount).padStart(7, '0')}`,
        emails: [],
        last_name: home.person.last_name,
        address: home.person.address,
        city: home.person.city,
        state: home.person.state,
        zip: home.person.zip,
        ...(i > 0 ? { first_name: distinctFirst(rng, names, m, base.slice(0, i)) } : {}),
      },
      activity: [],
      truth: {
        ...m.truth,
        householdId: id,
        role: i === 0 ? m.truth.role : m.truth.role === 'single' ? 'child' : m.truth.role,
        street: home.truth.street,
      },
    }));
    rename(kind, members, rng, names, both);
    yield { id, kind, members };
  }
}

/** A first name far (more than two edits) from every name already in the household. */
function distinctFirst(rng: Rng, names: NameMaker, m: GeneratedPerson, before: readonly GeneratedPerson[]): string {
  const taken = before.flatMap((o) => [o.person.first_name, o.person.middle_name ?? '']).map(key);
  let first = m.person.first_name;
  for (let tries = 0; tries < 30 && taken.some((t) => t.length > 1 && editDistance(t, key(first)) <= 2); tries++) {
    first = names.firstName(rng, m.person.gender);
  }
  return first;
}

function otherSurname(rng: Rng, names: NameMaker, from: string): string {
  let other = names.lastName(rng);
  while (editDistance(key(other), key(from)) <= 2 || other.includes("'")) other = names.lastName(rng);
  return other;
}

function fullMiddle(rng: Rng, names: NameMaker, m: GeneratedPerson, avoid: readonly string[]): string {
  let middle = m.person.middle_name;
  while (middle === undefined || middle.length < 2 || avoid.some((a) => editDistance(key(a), key(middle!)) <= 2)) {
    middle = names.firstName(rng, m.person.gender);
  }
  return middle;
}

function rename(kind: NameFormHouseholdKind, members: GeneratedPerson[], rng: Rng, names: NameMaker, both: readonly string[]): void {
  const last = members[0]!.person.last_name;
  const set = (m: GeneratedPerson, change: Partial<GeneratedPerson['person']>) => void Object.assign(m.person, change);
  switch (kind) {
    case 'compound': {
      const surname = `${last}${rng.chance(0.6) ? '-' : ' '}${otherSurname(rng, names, last)}`;
      for (const m of members) set(m, { last_name: surname });
      return;
    }
    case 'particle': {
      const surname = rng.pick(PARTICLE_SURNAMES);
      for (const m of members) set(m, { last_name: surname });
      return;
    }
    case 'married':
      set(members[1]!, { last_name: `${otherSurname(rng, names, last)}${rng.chance(0.7) ? '-' : ' '}${last}` });
      return;
    case 'swap-pair': {
      const x = rng.pick(both);
      let y = rng.pick(both);
      while (editDistance(key(x), key(y)) <= 2) y = rng.pick(both);
      set(members[0]!, { first_name: x, last_name: y, gender: 'Male' });
      set(members[1]!, { first_name: y, last_name: x, gender: 'Male' });
      return;
    }
    case 'same-names': {
      const [parent, child] = members as [GeneratedPerson, GeneratedPerson];
      const middle = fullMiddle(rng, names, parent, [parent.person.first_name, ...members.slice(2).map((m) => m.person.first_name)]);
      set(parent, { middle_name: middle, last_name: `${last} Sr` });
      set(child, { first_name: parent.person.first_name, middle_name: middle, last_name: `${last} Jr`, gender: parent.person.gender });
      return;
    }
    case 'middle-first': {
      const [parent, child] = members as [GeneratedPerson, GeneratedPerson];
      const others = members.slice(2).map((m) => m.person.first_name);
      const middle = fullMiddle(rng, names, parent, [parent.person.first_name, ...others]);
      set(parent, { middle_name: middle });
      const childMiddle = child.person.middle_name;
      const keepMiddle = childMiddle !== undefined && key(childMiddle)[0] !== key(parent.person.first_name)[0];
      set(child, { first_name: middle, middle_name: keepMiddle ? childMiddle : undefined, gender: parent.person.gender });
      return;
    }
    case 'near-names':
      return renameNearNames(members, rng, names);
    case 'double-first':
      return renameDoubleFirst(members, rng, names);
  }
}
