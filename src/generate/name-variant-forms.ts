/**
 * Identity queries with known truth for the name forms of issue 30, on a stream of their own
 * (`${seed}/name-variants`), so the variants of query-variants.ts and name-form-variants.ts stay
 * what they were.
 *
 * Over the main population (one variant for a share `rate` of the people):
 * - `title`: a salutation or title before the first name, now and then with the middle initial
 *   in the first-name field (`Dr. Jennifer K`): the person;
 * - `suffix`: `Jr`, `Sr`, `II`, `III`… after a last name stored without one: the person;
 * - `spelling-variant`: another spelling of the first name from name-spellings.ts: the person;
 * - `near-name`: a common first name one letter from the person's, not a spelling or nickname of
 *   it, and close to nobody's in the household: the household only.
 * Over the name-form households (nameVariantHouseholdQueries): `double-first`, `trap-near-names`,
 * and a `suffix` that conflicts with a stored one (`III` for a `Sr`/`Jr` pair): the household only.
 *
 * A careful person's answer, decided here: a first name one letter from another real first name
 * names somebody else (Joan is not John), a title or a suffix is no part of the first or last
 * name, and a conflicting generation is another person.
 */
import type { IdentityQuery } from '../identity/match/types.js';
import type { NameFormHousehold } from './name-form-households.js';
import { DOUBLE_FIRST_JOINS, DOUBLE_FIRST_NAMES, writeDouble } from './name-variant-households.js';
import type { NameVariantKind } from './name-variant-kinds.js';
import { otherSpellings, sameSpelling } from './name-spellings.js';
import { drawVariant, expectSelf, householdRuns, nicknameKeys } from './household-runs.js';
import type { GeneratedPerson } from './people.js';
import { editDistance, exactQuery, key, withoutKeys } from './query-edits.js';
import type { QueryExpectation, QueryVariant } from './query-variants.js';
import { Rng } from './random.js';
import { nameLists } from './reference-data.js';

export interface NameVariantOptions {
  seed: string | number;
  /** `[name, nickname]` pairs, lower-case; used in both directions. */
  nicknames: readonly (readonly [string, string])[];
  /** Share of the main population given one variant. Default 0.3. */
  rate?: number;
}

type Built = [IdentityQuery, QueryExpectation] | undefined;

const TITLES = {
  Male: ['Mr', 'Mr.', 'MR', 'Dr', 'Dr.', 'Rev.', 'Prof.'],
  Female: ['Mrs', 'Mrs.', 'Ms', 'Ms.', 'Miss', 'Dr.', 'Dr'],
} as const;
const SUFFIXES = [' Jr', ' Jr.', ', Jr.', ' JR', ' Sr', ' Sr.', ' II', ' III', ' IV', ' 2nd'];

export function* generateNameVariants(people: Iterable<GeneratedPerson>, options: NameVariantOptions): Generator<QueryVariant> {
  const maker = new NameVariantMaker(new Rng(`${String(options.seed)}/name-variants`), options.nicknames);
  const rate = options.rate ?? 0.3;
  for (const household of householdRuns(people)) {
    for (const item of household) if (maker.rng.chance(rate)) yield* maker.mainVariant(item, household);
  }
}

/** The queries of the households name-variant-households.ts renames, and conflicting suffixes. */
export function* nameVariantHouseholdQueries(h: NameFormHousehold, rng: Rng): Generator<QueryVariant> {
  const self = (m: GeneratedPerson): QueryExpectation => ({ individual: m.person.person_id, household: h.id });
  const emit = (kind: NameVariantKind, m: GeneratedPerson, query: IdentityQuery, expect: QueryExpectation): QueryVariant => ({
    query,
    kind,
    expect,
    from: m.person.person_id,
  });
  switch (h.kind) {
    case 'near-names': {
      const [a, b] = h.members as [GeneratedPerson, GeneratedPerson];
      for (const [m, other] of [
        [a, b],
        [b, a],
      ] as const) {
        yield emit('trap-near-names', m, withoutKeys(exactQuery(m.person), 'middle'), self(m));
        const slip = transposed(m.person.first_name);
        if (slip !== undefined && editDistance(key(slip), key(other.person.first_name)) > 1) {
          yield emit('trap-near-names', m, { ...exactQuery(m.person), first: slip }, self(m));
        }
      }
      return;
    }
    case 'double-first': {
      const m = h.members[0]!;
      const [first, second] = doubleParts(m.person.first_name);
      for (const join of DOUBLE_FIRST_JOINS) {
        const written = writeDouble(first, second, join);
        if (written === m.person.first_name) continue;
        // Spaced, with the middle name apart, it reads as first + middle; the middle is left out.
        const query = join === ' ' ? withoutKeys(exactQuery(m.person), 'middle') : exactQuery(m.person);
        yield emit('double-first', m, { ...query, first: written }, self(m));
      }
      return;
    }
    case 'same-names': {
      const [parent] = h.members as [GeneratedPerson];
      const bare = parent.person.last_name.replace(/\s+(Sr|Jr)$/, '');
      yield emit(
        'suffix',
        parent,
        { ...exactQuery(parent.person), last: `${bare}${rng.pick([' III', ' IV', ' 3rd'])}` },
        { household: h.id },
      );
      return;
    }
    default:
      return;
  }
}

/** The two names of a stored double first name, by the table it was made from. */
function doubleParts(written: string): [string, string] {
  for (const [first, second] of DOUBLE_FIRST_NAMES) {
    if (DOUBLE_FIRST_JOINS.some((join) => writeDouble(first, second, join) === written)) return [first, second];
  }
  throw new Error(`double-first: ${written} is not in DOUBLE_FIRST_NAMES`);
}

/** The second and third letters swapped (`Jhon`), for names of four letters or more. */
function transposed(name: string): string | undefined {
  if (name.length < 4 || name[1] === name[2]) return undefined;
  return name[0]! + name[2]! + name[1]! + name.slice(3);
}

class NameVariantMaker {
  private readonly nicknames: Map<string, Set<string>>;
  private readonly common: readonly string[];

  constructor(
    readonly rng: Rng,
    pairs: NameVariantOptions['nicknames'],
  ) {
    this.nicknames = nicknameKeys(pairs);
    const lists = nameLists();
    this.common = [...lists.female, ...lists.male];
  }

  /** One name in a person's eyes: equal, nicknames, or spellings of one name. */
  private same(a: string, b: string): boolean {
    return key(a) === key(b) || (this.nicknames.get(key(a))?.has(key(b)) ?? false) || sameSpelling(a, b);
  }

  /** Could be taken for each other: one name, or one edit apart. */
  private close(a: string, b: string): boolean {
    return this.same(a, b) || editDistance(key(a), key(b)) <= 1;
  }

  *mainVariant(item: GeneratedPerson, household: readonly GeneratedPerson[]): Generator<QueryVariant> {
    const p = item.person;
    const others = household.filter((m) => m !== item);
    if (others.some((m) => this.close(m.person.first_name, p.first_name))) return;
    const kinds: [NameVariantKind, () => Built][] = [
      ['title', () => this.title(item)],
      ['suffix', () => this.suffix(item)],
      ['spelling-variant', () => this.spelling(item, others)],
      ['near-name', () => this.nearName(item, others)],
    ];
    const variant = drawVariant(this.rng, kinds, p.person_id);
    if (variant !== undefined) yield variant;
  }

  private self(item: GeneratedPerson): QueryExpectation {
    return expectSelf(item);
  }

  private title(item: GeneratedPerson): Built {
    const p = item.person;
    const title = this.rng.pick(TITLES[p.gender]);
    if (p.middle_name !== undefined && this.rng.chance(0.4)) {
      return [{ ...withoutKeys(exactQuery(p), 'middle'), first: `${title} ${p.first_name} ${p.middle_name[0]!}` }, this.self(item)];
    }
    return [{ ...exactQuery(p), first: `${title} ${p.first_name}` }, this.self(item)];
  }

  private suffix(item: GeneratedPerson): Built {
    const p = item.person;
    return [{ ...exactQuery(p), last: `${p.last_name}${this.rng.pick(SUFFIXES)}` }, this.self(item)];
  }

  private spelling(item: GeneratedPerson, others: readonly GeneratedPerson[]): Built {
    const p = item.person;
    const choices = otherSpellings(p.first_name).filter((n) => !others.some((m) => this.close(m.person.first_name, n)));
    if (choices.length === 0) return undefined;
    return [{ ...exactQuery(p), first: this.rng.pick(choices) }, this.self(item)];
  }

  /** A common first name one letter from the person's that is another name, nobody's at the address. */
  private nearName(item: GeneratedPerson, others: readonly GeneratedPerson[]): Built {
    const p = item.person;
    const choices = this.common.filter(
      (n) =>
        editDistance(key(n), key(p.first_name)) === 1 &&
        !this.same(n, p.first_name) &&
        !others.some((m) => this.close(m.person.first_name, n) || this.close(m.person.middle_name ?? '', n)) &&
        !this.close(p.middle_name ?? '', n),
    );
    if (choices.length === 0) return undefined;
    return [{ ...withoutKeys(exactQuery(p), 'middle'), first: this.rng.pick(choices) }, { household: item.truth.householdId }];
  }
}
