/**
 * Identity queries with known truth, for the identity evaluation: each derived from a generated
 * person (and their household) the way an integrator would send it — a nickname, a spelled-out
 * suffix, a missing unit, a typo, another member of the household, someone who moved — with the
 * person and household the matcher should find.
 *
 * Determinism: drawn on their own stream (`${seed}/queries`) from the records in generation order,
 * so the same people and seed give the same variants and no generated record changes. People of a
 * household must arrive one after another (as `generatePeople` yields them): a household's
 * variants come out once the next household starts.
 *
 * Expectations, decided here once:
 * - a typo (one transposition or keyboard substitution, never in the first letter) in the first
 *   name, the last name or the street name still expects the person: with the rest of the name and
 *   the address agreeing nobody else can be meant, and a surname is keyed wrongly as often as a
 *   given name (the generator never puts near-identical surnames at one address);
 * - first + last + ZIP+4 without a street expects the person: a ZIP+4 is one side of a block;
 * - an unknown first name (nobody's first or middle name in the household) at the household's
 *   address with its last name expects the household only; a person who moved, a stranger at a
 *   real address and a real name at another household's address expect nothing;
 * - a first name cut to its initial (`J Smith`, no middle name) expects the person when nobody
 *   else in the household has that initial, and the household only when somebody does (`J Smith`
 *   at John and Jane Smith's is either of them: claiming one is a guess). Unlike the nickname and
 *   typo kinds, it owes nothing to the matcher's own tables or slip model.
 */
import type { IdentityQuery } from '../identity/match/types.js';
import { AddressMaker, DIRECTIONALS, formatStreet, STREET_SUFFIXES, UNIT_DESIGNATORS, type StreetAddress } from './address.js';
import type { GeneratedPerson } from './people.js';
import { rankWeights, Rng, WeightedTable } from './random.js';
import { nameLists } from './reference-data.js';
import { capitalise, editDistance, exactQuery, key, KEYBOARD_NEIGHBOURS, withoutKeys } from './query-edits.js';
import { KIND_WEIGHTS, VARIANT_KINDS, type VariantKind, type WeightedKind } from './query-kinds.js';
import type { Gender } from './records.js';

export { NAME_FORM_KINDS, VARIANT_DESCRIPTIONS, VARIANT_KINDS, type NameFormKind, type VariantKind } from './query-kinds.js';

export interface QueryExpectation {
  /** `person_id` the matcher should return as an Individual match. */
  individual?: string;
  /** `householdId` (PersonTruth) whose members may be returned as Household matches. */
  household?: string;
}

export interface QueryVariant {
  query: IdentityQuery;
  kind: VariantKind;
  expect: QueryExpectation;
  /** `person_id` of the person the query was derived from (for reading failures). */
  from: string;
}

export interface QueryVariantOptions {
  seed: string | number;
  /** Variants per person, each of another kind; a fraction is met on average. Default 1. */
  perPerson?: number;
  /** `[name, nickname]` pairs, lower-case (e.g. nickname_pairs.json); used in both directions. */
  nicknames: readonly (readonly [string, string])[];
}

interface Household {
  id: string;
  members: GeneratedPerson[];
}

interface Context {
  item: GeneratedPerson;
  household: Household;
  /** Households seen before this one (a bounded window), for `wrong-address`. */
  previous: readonly Household[];
}

const RECENT_HOUSEHOLDS = 64;

export function* generateQueryVariants(people: Iterable<GeneratedPerson>, options: QueryVariantOptions): Generator<QueryVariant> {
  const perPerson = options.perPerson ?? 1;
  if (!(perPerson >= 0 && perPerson <= VARIANT_KINDS.length))
    throw new RangeError(`perPerson must be 0 to ${VARIANT_KINDS.length}, not ${perPerson}`);
  const maker = new VariantMaker(new Rng(`${String(options.seed)}/queries`), options.nicknames);
  const previous: Household[] = [];
  let current: Household | undefined;
  const finish = function* (household: Household) {
    for (const item of household.members) {
      const count = Math.floor(perPerson) + (maker.rng.chance(perPerson % 1) ? 1 : 0);
      yield* maker.variantsFor({ item, household, previous }, count);
    }
    previous.push(household);
    if (previous.length > RECENT_HOUSEHOLDS) previous.shift();
  };
  for (const item of people) {
    if (current?.id !== item.truth.householdId) {
      if (current) yield* finish(current);
      current = { id: item.truth.householdId, members: [] };
    }
    current.members.push(item);
  }
  if (current) yield* finish(current);
}

type Builder = (c: Context) => IdentityQuery | [IdentityQuery, QueryExpectation] | undefined;

class VariantMaker {
  private readonly addresses = new AddressMaker();
  private readonly firstNames: WeightedTable<string>;
  private readonly byGender: Readonly<Record<Gender, WeightedTable<string>>>;
  private readonly lastNames: WeightedTable<string>;
  private readonly nicknames = new Map<string, string[]>();
  private readonly builders: Record<WeightedKind, Builder>;

  constructor(
    readonly rng: Rng,
    pairs: QueryVariantOptions['nicknames'],
  ) {
    const lists = nameLists();
    const first = [...lists.female, ...lists.male];
    this.firstNames = new WeightedTable(first, [...rankWeights(lists.female.length), ...rankWeights(lists.male.length)]);
    this.byGender = {
      Female: new WeightedTable(lists.female, rankWeights(lists.female.length)),
      Male: new WeightedTable(lists.male, rankWeights(lists.male.length)),
    };
    this.lastNames = new WeightedTable(lists.last, rankWeights(lists.last.length));
    for (const [name, nick] of pairs) {
      const a = name.toLowerCase();
      const b = nick.toLowerCase();
      // Initials (`k.c.`) are not names an integrator sends as a first name.
      if (!/^[a-z]+$/.test(a) || !/^[a-z]+$/.test(b) || a === b) continue;
      this.related(a).push(b);
      this.related(b).push(a);
    }
    this.builders = {
      exact: (c) => exactQuery(c.item.person),
      nickname: (c) => this.nickname(c),
      'middle-initial': ({ item: { person: p } }) =>
        p.middle_name && p.middle_name.length > 1
          ? { ...exactQuery(p), middle: p.middle_name[0]! + (rng.chance(0.3) ? '.' : '') }
          : undefined,
      'middle-full': (c) => this.fullMiddle(c),
      'middle-missing': ({ item: { person: p } }) => (p.middle_name ? withoutKeys(exactQuery(p), 'middle') : undefined),
      'street-spelled-out': (c) => this.spelledOut(c),
      'no-unit': ({ item: { person: p, truth } }) =>
        truth.street.unitType
          ? { ...exactQuery(p), street: formatStreet({ ...truth.street, unitType: undefined, unitNumber: undefined }) }
          : undefined,
      zip5: ({ item: { person: p } }) => ({ ...exactQuery(p), zip: p.zip.slice(0, 5) }),
      'no-zip': ({ item: { person: p } }) => withoutKeys(exactQuery(p), 'zip'),
      'zip4-no-street': ({ item: { person: p } }) => withoutKeys(exactQuery(p), 'street', 'city', 'state'),
      noise: (c) => this.noise(c),
      'typo-first': (c) => {
        const typo = this.typo(c.item.person.first_name);
        return typo !== undefined && !this.confusable(c, typo) ? { ...exactQuery(c.item.person), first: typo } : undefined;
      },
      'typo-last': (c) => {
        const typo = this.typo(c.item.person.last_name);
        return typo === undefined ? undefined : { ...exactQuery(c.item.person), last: typo };
      },
      'typo-street': ({ item: { person: p, truth } }) => {
        if (/\d/.test(truth.street.name)) return undefined;
        const typo = this.typo(truth.street.name);
        return typo === undefined ? undefined : { ...exactQuery(p), street: formatStreet({ ...truth.street, name: typo }) };
      },
      'first-initial': (c) => this.firstInitial(c),
      'household-member': (c) => this.member(c),
      'household-unknown': (c) => this.unknownMember(c),
      moved: ({ item: { person: p } }) => {
        const moved = this.addresses.draw(rng, rng.chance(0.5));
        const query = { ...exactQuery(p), street: moved.line, city: moved.place.city, state: moved.place.state, zip: moved.zip };
        return [query, {}];
      },
      stranger: (c) => this.stranger(c),
      'wrong-address': (c) => this.wrongAddress(c),
    };
  }

  *variantsFor(c: Context, count: number): Generator<QueryVariant> {
    const p = c.item.person;
    // Two members with one first name (the generator allows it after 8 tries) make no variant
    // whose truth is certain: leave them out.
    if (count === 0 || this.takenFirst(c, p.first_name)) return;
    const left = [...VARIANT_KINDS];
    const expectSelf: QueryExpectation = { individual: p.person_id, household: c.item.truth.householdId };
    for (let made = 0; made < count && left.length > 0;) {
      const index = this.rng.weightedIndex(left.map((kind) => KIND_WEIGHTS[kind]));
      const kind = left.splice(index, 1)[0]!;
      const built = this.builders[kind](c);
      if (built === undefined) continue;
      const [query, expect] = Array.isArray(built) ? built : [built, expectSelf];
      yield { query, kind, expect, from: p.person_id };
      made++;
    }
  }

  private related(name: string): string[] {
    let list = this.nicknames.get(name);
    if (list === undefined) this.nicknames.set(name, (list = []));
    return list;
  }

  /** Whether another member of the household has this first name (after normalising). */
  private takenFirst(c: Context, first: string): boolean {
    const k = key(first);
    return c.household.members.some((m) => m !== c.item && key(m.person.first_name) === k);
  }

  /** Whether a first name could be taken for a member's: equal, a nickname, or `edits` away. */
  private closeToMember(c: Context, first: string, edits = 2, others = c.household.members): boolean {
    const k = key(first);
    return others.some((m) => {
      const other = key(m.person.first_name);
      return editDistance(k, other) <= edits || (this.nicknames.get(other) ?? []).includes(k);
    });
  }

  /** Whether a first name could be taken for a member's full middle name: equal, a nickname, or two edits away. */
  private closeToMiddle(c: Context, first: string): boolean {
    const k = key(first);
    return c.household.members.some((m) => {
      const middle = key(m.person.middle_name ?? '');
      return middle.length > 1 && (editDistance(k, middle) <= 2 || (this.nicknames.get(middle) ?? []).includes(k));
    });
  }

  /** Whether a variant of this person's first name could mean another member. */
  private confusable(c: Context, first: string): boolean {
    return this.closeToMember(
      c,
      first,
      1,
      c.household.members.filter((m) => m !== c.item),
    );
  }

  private nickname(c: Context): IdentityQuery | undefined {
    const choices = (this.nicknames.get(key(c.item.person.first_name)) ?? []).filter((n) => !this.confusable(c, n));
    if (choices.length === 0) return undefined;
    return { ...exactQuery(c.item.person), first: capitalise(this.rng.pick(choices)) };
  }

  /** The record has an initial; the query a full middle name with that initial. */
  private fullMiddle({ item: { person: p } }: Context): IdentityQuery | undefined {
    if (p.middle_name?.length !== 1) return undefined;
    for (let tries = 0; tries < 50; tries++) {
      const name = this.byGender[p.gender].draw(this.rng);
      if (name[0] === p.middle_name && name !== p.first_name) return { ...exactQuery(p), middle: name };
    }
    return undefined;
  }

  private spelledOut({ item: { person: p, truth } }: Context): IdentityQuery | undefined {
    const s = truth.street;
    const spelled: StreetAddress = { ...s, suffix: STREET_SUFFIXES[s.suffix] ?? s.suffix };
    if (s.predirectional) spelled.predirectional = DIRECTIONALS[s.predirectional];
    if (s.postdirectional) spelled.postdirectional = DIRECTIONALS[s.postdirectional];
    if (s.unitType) spelled.unitType = UNIT_DESIGNATORS[s.unitType];
    const line = formatStreet(spelled);
    return line === p.address ? undefined : { ...exactQuery(p), street: line };
  }

  /** Two to four kinds of keying noise an integrator's data carries. */
  private noise({ item: { person: p } }: Context): IdentityQuery {
    const q = exactQuery(p);
    const ops: ((q: IdentityQuery) => void)[] = [
      (q) => {
        const lower = this.rng.chance(0.5);
        const change = (s: string) => (lower ? s.toLowerCase() : s.toUpperCase());
        q.first = change(q.first);
        q.last = change(q.last);
        if (q.middle) q.middle = change(q.middle);
      },
      (q) => {
        q.first = ` ${q.first}`;
        q.last = `${q.last}  `;
        q.street = q.street!.replace(' ', '  ');
      },
      (q) =>
        void (q.street = `${q.street!.replace(/\b(St|Ave|Rd|Dr|Ln|Blvd|Ct|Pl|Cir|Ter|Pkwy|Trl|N|S|E|W|NE|NW|SE|SW|Apt|Ste)\b/g, '$1.')}`),
      (q) => void (q.street = q.street!.replace(/ (Apt|Unit|Ste|#) /, ', $1 ')),
      (q) => void (q.street = this.rng.chance(0.5) ? q.street!.toUpperCase() : q.street!.toLowerCase()),
      (q) => {
        q.city = q.city!.toUpperCase();
        q.state = q.state!.toLowerCase();
      },
      (q) => void (q.zip = q.zip!.replace('-', this.rng.chance(0.5) ? '' : ' ')),
      (q) => void (q.last = q.last.includes("'") ? q.last.replace("'", this.rng.chance(0.5) ? '' : ' ') : q.last.toLowerCase()),
    ];
    const zip = ops[6]!;
    const want = this.rng.int(2, 4);
    for (let done = 0; done < want; done++) ops.splice(this.rng.below(ops.length), 1)[0]!(q);
    // A `Way` without directional or unit can leave the street untouched: make sure something changed.
    if (q.zip === p.zip && JSON.stringify(q) === JSON.stringify(exactQuery(p))) zip(q);
    return q;
  }

  /**
   * One transposition of neighbouring letters or one substitution by a keyboard neighbour, never
   * in the first letter (where phonetic codes and people's eyes both anchor). Undefined for words
   * under four letters.
   */
  private typo(word: string): string | undefined {
    if (word.replace(/[^A-Za-z]/g, '').length < 4) return undefined;
    for (let tries = 0; tries < 20; tries++) {
      const chars = [...word];
      const i = this.rng.int(1, chars.length - 1);
      if (!/[a-z]/i.test(chars[i]!)) continue;
      if (this.rng.chance(0.5)) {
        const j = i + 1 < chars.length && /[a-z]/i.test(chars[i + 1]!) ? i + 1 : i - 1;
        if (j < 1 || !/[a-z]/i.test(chars[j]!) || chars[i]!.toLowerCase() === chars[j]!.toLowerCase()) continue;
        [chars[i], chars[j]] = [chars[j]!, chars[i]!];
      } else {
        const lower = chars[i]!.toLowerCase();
        const near = KEYBOARD_NEIGHBOURS.get(lower);
        if (near === undefined) continue;
        const sub = this.rng.pick(near);
        chars[i] = chars[i] === lower ? sub : sub.toUpperCase();
      }
      const typo = chars.join('');
      if (key(typo) !== key(word)) return typo;
    }
    return undefined;
  }

  /**
   * `J` or `J.` for the first name, without the middle name: the person when their initial is
   * theirs alone in the household, the household only when another member's name starts with it.
   */
  private firstInitial(c: Context): [IdentityQuery, QueryExpectation] | undefined {
    const p = c.item.person;
    const initial = key(p.first_name)[0];
    if (initial === undefined) return undefined;
    const query = { ...withoutKeys(exactQuery(p), 'middle'), first: initial.toUpperCase() + (this.rng.chance(0.3) ? '.' : '') };
    const shared = c.household.members.some((m) => m !== c.item && key(m.person.first_name)[0] === initial);
    return [query, shared ? { household: c.household.id } : { individual: p.person_id, household: c.household.id }];
  }

  /** Another member's first name with this address and last name: that member. */
  private member(c: Context): [IdentityQuery, QueryExpectation] | undefined {
    const others = c.household.members.filter((m) => m !== c.item && !this.takenFirst({ ...c, item: m }, m.person.first_name));
    if (others.length === 0) return undefined;
    const m = this.rng.pick(others);
    const query = { ...withoutKeys(exactQuery(c.item.person), 'middle'), first: m.person.first_name };
    return [query, { individual: m.person.person_id, household: c.household.id }];
  }

  /**
   * A first name nobody in the household has (nor a nickname or near spelling of one), not even as
   * a middle name: `Robert Smith` at John Robert Smith's is John going by his middle name.
   */
  private unknownMember(c: Context): [IdentityQuery, QueryExpectation] | undefined {
    for (let tries = 0; tries < 20; tries++) {
      const first = this.firstNames.draw(this.rng);
      if (this.closeToMember(c, first) || this.closeToMiddle(c, first)) continue;
      return [{ ...withoutKeys(exactQuery(c.item.person), 'middle'), first }, { household: c.household.id }];
    }
    return undefined;
  }

  /** Somebody else's name (a last name far from the household's) at this address. */
  private stranger(c: Context): [IdentityQuery, QueryExpectation] | undefined {
    const p = c.item.person;
    for (let tries = 0; tries < 20; tries++) {
      const last = this.lastNames.draw(this.rng);
      if (editDistance(key(last), key(p.last_name)) <= 2) continue;
      return [{ ...withoutKeys(exactQuery(p), 'middle'), first: this.firstNames.draw(this.rng), last }, {}];
    }
    return undefined;
  }

  /** This person's name at the address of a household seen earlier with a last name far from theirs. */
  private wrongAddress(c: Context): [IdentityQuery, QueryExpectation] | undefined {
    const p = c.item.person;
    const fits = c.previous.filter((h) => editDistance(key(h.members[0]!.person.last_name), key(p.last_name)) > 2);
    if (fits.length === 0) return undefined;
    const there = this.rng.pick(fits).members[0]!.person;
    return [{ ...exactQuery(p), street: there.address, city: there.city, state: there.state, zip: there.zip }, {}];
  }
}
