/**
 * Identity queries with known truth for the name forms real files carry (issue: swapped names,
 * compound surnames, going by the middle name), on a stream of their own (`${seed}/name-forms`),
 * so the variants of query-variants.ts stay what they were.
 *
 * Over the main population (one variant for a share `rate` of the people):
 * - `swapped`: first and last name exchanged (`Smith John`), now and then without the street
 *   (name + ZIP+4);
 * - `middle-name`: the middle name as first name (`Robert Smith`, or `Robert J Smith`);
 * - `double-surname`: the surname with another one joined to it, in either order, hyphenated or
 *   spaced (`Smith-Jones` for Smith: the file carries a maiden and a married name).
 * Over the name-form households (name-form-households.ts), every member:
 * - `surname-part`: one part of a compound or double surname (`Garcia` for Garcia-Lopez; `Jones`
 *   or `Smith` for Smith-Jones);
 * - `surname-particle`: the particles dropped (`Cruz` for De La Cruz);
 * - `surname-joined`: the words joined or cut otherwise (`GarciaLopez`, `Garcia Lopez`, `Delacruz`);
 * - the traps: `trap-swap`, `trap-same-names`, `trap-middle-first` (see their descriptions).
 *
 * Expectations are decided here: the person, unless another member answers the query as well or
 * better. A query that another member answers as written (the swap of one of the pair is the
 * other's name; `Robert Smith` where a Robert Smith lives) expects that member; one that two
 * members answer equally (`Robert Smith` for a father and son both John Robert) expects the
 * household only. A variant whose truth would depend on the matcher's weights is not made.
 */
import type { IdentityQuery } from '../identity/match/types.js';
import type { NameFormHousehold } from './name-form-households.js';
import { drawVariant, expectSelf, householdRuns, nicknameKeys } from './household-runs.js';
import type { GeneratedPerson } from './people.js';
import { editDistance, exactQuery, key, withoutKeys } from './query-edits.js';
import type { NameFormKind } from './query-kinds.js';
import type { QueryExpectation, QueryVariant } from './query-variants.js';
import { Rng } from './random.js';
import { NameMaker } from './names.js';
import { nameVariantHouseholdQueries } from './name-variant-forms.js';

export interface NameFormVariantOptions {
  seed: string | number;
  /** `[name, nickname]` pairs, lower-case; used in both directions. */
  nicknames: readonly (readonly [string, string])[];
  /** Share of the main population given one name-form variant. Default 0.3. */
  rate?: number;
}

type Built = [IdentityQuery, QueryExpectation] | undefined;

export function* generateNameFormVariants(
  people: Iterable<GeneratedPerson>,
  households: Iterable<NameFormHousehold>,
  options: NameFormVariantOptions,
): Generator<QueryVariant> {
  const maker = new NameFormMaker(new Rng(`${String(options.seed)}/name-forms`), options.nicknames);
  const rate = options.rate ?? 0.3;
  for (const household of householdRuns(people)) {
    for (const item of household) if (maker.rng.chance(rate)) yield* maker.mainVariant(item, household);
  }
  for (const household of households) yield* maker.householdVariants(household);
}

const SUFFIX = /\s+(Sr|Jr)$/;

class NameFormMaker {
  private readonly nicknames: Map<string, Set<string>>;
  private readonly names = new NameMaker();

  constructor(
    readonly rng: Rng,
    pairs: NameFormVariantOptions['nicknames'],
  ) {
    this.nicknames = nicknameKeys(pairs);
  }

  /** Equal or nicknames of each other. */
  private agree(a: string, b: string): boolean {
    return key(a) === key(b) || (this.nicknames.get(key(a))?.has(key(b)) ?? false);
  }

  /** Could be taken for each other by a matcher: agreeing, or one edit apart. */
  private close(a: string, b: string): boolean {
    return this.agree(a, b) || editDistance(key(a), key(b)) <= 1;
  }

  *mainVariant(item: GeneratedPerson, household: readonly GeneratedPerson[]): Generator<QueryVariant> {
    const p = item.person;
    const others = household.filter((m) => m !== item);
    // Two members with one first name make no variant whose truth is certain.
    if (others.some((m) => this.close(m.person.first_name, p.first_name))) return;
    const kinds: [NameFormKind, () => Built][] = [
      ['swapped', () => this.swapped(item, others)],
      ['middle-name', () => this.middleName(item, others)],
      ['double-surname', () => this.doubleSurname(item)],
    ];
    const variant = drawVariant(this.rng, kinds, p.person_id);
    if (variant !== undefined) yield variant;
  }

  private self(item: GeneratedPerson): QueryExpectation {
    return expectSelf(item);
  }

  private swapped(item: GeneratedPerson, others: readonly GeneratedPerson[]): Built {
    const p = item.person;
    // A first name that is a surname one edit from the person's own reads as written.
    if (key(p.first_name).length < 2 || editDistance(key(p.first_name), key(p.last_name)) <= 1) return undefined;
    if (others.some((m) => this.agree(m.person.first_name, p.first_name))) return undefined;
    let query: IdentityQuery = { ...exactQuery(p), first: p.last_name, last: p.first_name };
    if (this.rng.chance(0.5)) query = withoutKeys(query, 'middle');
    if (this.rng.chance(0.2)) query = withoutKeys(query, 'street', 'city', 'state');
    return [query, this.self(item)];
  }

  private middleName(item: GeneratedPerson, others: readonly GeneratedPerson[]): Built {
    const p = item.person;
    const middle = p.middle_name;
    if (middle === undefined || middle.length < 2 || this.close(middle, p.first_name)) return undefined;
    // Somebody in the household who has that name (or one a slip from it) is what the query says.
    if (others.some((m) => this.close(m.person.first_name, middle))) return undefined;
    const initial = this.rng.chance(0.3) ? p.first_name[0]! : undefined;
    const query: IdentityQuery = { ...withoutKeys(exactQuery(p), 'middle'), first: middle, ...(initial ? { middle: initial } : {}) };
    const alike = others.some(
      (m) =>
        m.person.middle_name !== undefined &&
        m.person.middle_name.length > 1 &&
        this.agree(m.person.middle_name, middle) &&
        (initial === undefined || m.person.first_name[0] === initial),
    );
    return [query, alike ? { household: item.truth.householdId } : this.self(item)];
  }

  private doubleSurname(item: GeneratedPerson): Built {
    const p = item.person;
    let other = this.names.lastName(this.rng);
    while (editDistance(key(other), key(p.last_name)) <= 2) other = this.names.lastName(this.rng);
    const [a, b] = this.rng.chance(0.5) ? [p.last_name, other] : [other, p.last_name];
    return [{ ...exactQuery(p), last: `${a}${this.rng.chance(0.6) ? '-' : ' '}${b}` }, this.self(item)];
  }

  *householdVariants(h: NameFormHousehold): Generator<QueryVariant> {
    // The households of issue 30's forms, and a conflicting suffix for the Sr/Jr pair.
    yield* nameVariantHouseholdQueries(h, this.rng);
    if (h.kind === 'near-names' || h.kind === 'double-first') return;
    const made: [NameFormKind, GeneratedPerson, IdentityQuery, QueryExpectation][] = [];
    const self = (m: GeneratedPerson) => this.self(m);
    const household = { household: h.id };
    const at = (m: GeneratedPerson, change: Partial<IdentityQuery>, drop: (keyof IdentityQuery)[] = []) =>
      ({ ...withoutKeys(exactQuery(m.person), ...drop), ...change }) as IdentityQuery;
    switch (h.kind) {
      case 'compound':
        for (const m of h.members) {
          const words = m.person.last_name.split(/[-\s]+/);
          made.push(['surname-part', m, at(m, { last: this.rng.pick(words) }), self(m)]);
          const hyphenated = m.person.last_name.includes('-');
          const other = this.rng.chance(0.5) ? words.join('') : words.join(hyphenated ? ' ' : '-');
          made.push(['surname-joined', m, at(m, { last: other }), self(m)]);
        }
        break;
      case 'particle':
        for (const m of h.members) {
          const words = m.person.last_name.split(/\s+/);
          made.push(['surname-particle', m, at(m, { last: words.at(-1)! }), self(m)]);
          const joined = words.join('').replace(/\./g, '');
          made.push(['surname-joined', m, at(m, { last: joined[0]!.toUpperCase() + joined.slice(1).toLowerCase() }), self(m)]);
        }
        break;
      case 'married': {
        const [first, spouse] = h.members as [GeneratedPerson, GeneratedPerson];
        const [maiden, married] = spouse.person.last_name.split(/[-\s]+/) as [string, string];
        made.push(['surname-part', spouse, at(spouse, { last: married }), self(spouse)]);
        made.push(['surname-part', spouse, at(spouse, { last: maiden }), self(spouse)]);
        made.push(['double-surname', first, at(first, { last: spouse.person.last_name }), self(first)]);
        break;
      }
      case 'swap-pair': {
        const [a, b] = h.members as [GeneratedPerson, GeneratedPerson];
        // Each one's name swapped is the other's name as written: the other is meant.
        made.push(['trap-swap', a, at(a, { first: a.person.last_name, last: a.person.first_name }, ['middle']), self(b)]);
        made.push(['trap-swap', b, at(b, { first: b.person.last_name, last: b.person.first_name }, ['middle']), self(a)]);
        made.push(['trap-swap', a, at(a, {}), self(a)]);
        break;
      }
      case 'same-names': {
        const [parent, child] = h.members as [GeneratedPerson, GeneratedPerson];
        const middle = parent.person.middle_name!;
        const bare = parent.person.last_name.replace(SUFFIX, '');
        const initial = parent.person.first_name[0]!;
        made.push(['trap-same-names', parent, at(parent, { first: middle, last: bare }, ['middle']), household]);
        made.push(['trap-same-names', parent, at(parent, { first: initial, middle, last: bare }), household]);
        made.push(['trap-same-names', child, at(child, { first: middle }, ['middle']), self(child)]);
        made.push(['trap-same-names', parent, at(parent, { first: middle }, ['middle']), self(parent)]);
        made.push(['trap-same-names', child, at(child, {}), self(child)]);
        break;
      }
      case 'middle-first': {
        const [parent, child] = h.members as [GeneratedPerson, GeneratedPerson];
        const initial = parent.person.first_name[0]!;
        made.push(['trap-middle-first', child, at(child, {}, ['middle']), self(child)]);
        if (!h.members.slice(2).some((m) => m.person.first_name[0] === initial)) {
          made.push(['trap-middle-first', parent, at(parent, { first: initial, middle: parent.person.middle_name! }), self(parent)]);
        }
        made.push(['trap-middle-first', parent, at(parent, {}, ['middle']), self(parent)]);
        break;
      }
    }
    // The father and son of `same-names` share their names on purpose: Sr and Jr tell them apart.
    const namesakes = h.kind === 'same-names' ? h.members.slice(0, 2) : [];
    for (const [kind, m, query, expect] of made) {
      // A member the query's first name could mean as written (a nickname: Jonathan and John) is
      // the stronger reading: such a query would test the nickname list, not the name form.
      const bystander = h.members.some(
        (o) =>
          o !== m &&
          o.person.person_id !== expect.individual &&
          !namesakes.includes(o) &&
          query.first.length > 1 &&
          this.close(o.person.first_name, query.first),
      );
      if (!bystander) yield { query, kind, expect, from: m.person.person_id };
    }
  }
}
