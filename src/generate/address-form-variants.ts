/**
 * Identity queries with known truth for the address forms real files carry (issue 30), over the
 * address-form households (address-form-households.ts), on a stream of their own
 * (`${seed}/address-forms`) so the other variants stay what they were. Every member is asked:
 *
 * - `highway-form`, `county-road-form`: the road in another spelling of its class (`St Hwy 61`,
 *   `SR 61`, `Hwy 61` for a stored `State Highway 61`; `CR 5`, `CTY RD 5` for `County Road 5`);
 * - `rural-route-form`: the box in another spelling (`Rural Route 2, Box 152`, `RFD #2 Box 152`,
 *   `Box 152 RR 2`);
 * - `unit-punctuation`: the unit in other punctuation (`Apt 3-C`, `#3C`, `Unit 3 C`);
 * - `other-zip`: the record with another ZIP of the same city (address-correction software's
 *   case): the person; `other-zip-initial`, the first name cut to its initial there: the household
 *   only (a corrected ZIP is a weaker signal).
 * And each household once, expecting nobody:
 * - `road-number-trap`: the road with the next number (`State Hwy 62`);
 * - `unit-letter-trap`: the unit with another letter (`Apt 3D` for 3C: another apartment).
 */
import type { IdentityQuery } from '../identity/match/types.js';
import { STORED_SPELLING, type AddressForm, type AddressFormHousehold } from './address-form-households.js';
import type { AddressFormKind } from './address-form-kinds.js';
import type { GeneratedPerson } from './people.js';
import { exactQuery, withoutKeys } from './query-edits.js';
import type { QueryExpectation, QueryVariant } from './query-variants.js';
import { Rng } from './random.js';

const SPELLINGS: Readonly<Record<'state-highway' | 'county-road', readonly string[]>> = {
  'state-highway': [...STORED_SPELLING['state-highway'], 'St. Hwy.', 'ST RT', 'St Rte', 'State Rte', 'SH', 'Route', 'Rt'],
  'county-road': [...STORED_SPELLING['county-road'], 'Co. Rd.', 'Cnty Road', 'C R', 'County Rd.'],
};

const RURAL: readonly ((route: string, box: string) => string)[] = [
  (r, b) => `Rural Route ${r}, Box ${b}`,
  (r, b) => `R R ${r} Box ${b}`,
  (r, b) => `RFD ${r} Box ${b}`,
  (r, b) => `RFD #${r} Box ${b}`,
  (r, b) => `RR ${r}, Box ${b}`,
  (r, b) => `Route ${r} Box ${b}`,
  (r, b) => `Rt ${r} Bx ${b}`,
  (r, b) => `RR${r} Box ${b}`,
  (r, b) => `R.R. ${r} Box ${b}`,
  (r, b) => `Box ${b} RR ${r}`,
  (r, b) => `RR ${r} #${b}`,
  (r, b) => `Rural Rt ${r} Box ${b}`,
];

const UNIT: readonly ((n: string, l: string) => string)[] = [
  (n, l) => `Apt ${n}-${l}`,
  (n, l) => `Apt ${n} ${l}`,
  (n, l) => `#${n}${l}`,
  (n, l) => `# ${n}-${l}`,
  (n, l) => `Apt. ${n}${l}`,
  (n, l) => `Apt #${n}-${l}`,
  (n, l) => `Unit ${n} ${l}`,
  (n, l) => `Unit ${n}${l.toLowerCase()}`,
  (n, l) => `, Apt ${n}-${l}`,
  (n, l) => `Ste ${n}${l}`,
];

export function* generateAddressFormVariants(
  households: Iterable<AddressFormHousehold>,
  options: { seed: string | number },
): Generator<QueryVariant> {
  const rng = new Rng(`${String(options.seed)}/address-forms`);
  for (const household of households) {
    for (const member of household.members) yield* memberVariants(rng, household, member);
    const trap = trapVariant(rng, household);
    if (trap) yield trap;
  }
}

function memberVariants(rng: Rng, h: AddressFormHousehold, m: GeneratedPerson): QueryVariant[] {
  const p = m.person;
  const self: QueryExpectation = { individual: p.person_id, household: h.id };
  const variant = (kind: AddressFormKind, query: IdentityQuery, expect: QueryExpectation = self): QueryVariant => ({
    query,
    kind,
    expect,
    from: p.person_id,
  });
  const withStreet = (street: string) => ({ ...exactQuery(p), street });
  const f = h.form;
  switch (f.kind) {
    case 'state-highway':
    case 'county-road': {
      const spelling = otherThan(rng, SPELLINGS[f.kind], p.address);
      return [variant(f.kind === 'state-highway' ? 'highway-form' : 'county-road-form', withStreet(roadLine(f, spelling, f.road)))];
    }
    case 'rural-route':
      return [variant('rural-route-form', withStreet(rng.pick(RURAL)(f.route, f.box)))];
    case 'lettered-unit': {
      const lines = UNIT.map((unit) => `${f.line} ${unit(f.number, f.letter)}`.replace(' ,', ',')).filter((line) => line !== p.address);
      return [variant('unit-punctuation', withStreet(rng.pick(lines)))];
    }
    case 'other-zip': {
      const zip = rng.pick(h.otherZips);
      const initial = { ...withoutKeys(exactQuery(p), 'middle'), first: p.first_name[0]!, zip };
      return [variant('other-zip', { ...exactQuery(p), zip }), variant('other-zip-initial', initial, { household: h.id })];
    }
  }
}

function trapVariant(rng: Rng, h: AddressFormHousehold): QueryVariant | undefined {
  const p = h.members[0]!.person;
  const f = h.form;
  const nobody = (kind: AddressFormKind, street: string): QueryVariant => ({
    query: { ...exactQuery(p), street },
    kind,
    expect: {},
    from: p.person_id,
  });
  if (f.kind === 'state-highway' || f.kind === 'county-road') {
    return nobody('road-number-trap', roadLine(f, rng.pick(SPELLINGS[f.kind]), String(Number(f.road) + 1)));
  }
  if (f.kind === 'lettered-unit') {
    const other = String.fromCharCode(((f.letter.charCodeAt(0) - 64) % 8) + 65);
    return nobody('unit-letter-trap', `${f.line} ${rng.pick(UNIT)(f.number, other)}`.replace(' ,', ','));
  }
  return undefined;
}

function roadLine(f: Extract<AddressForm, { house: string }>, spelling: string, road: string): string {
  return `${f.house} ${spelling} ${road}${f.unit ? ` Unit ${f.unit}` : ''}`;
}

/** A spelling the stored line does not use, when there is one. */
function otherThan(rng: Rng, spellings: readonly string[], stored: string): string {
  const others = spellings.filter((s) => !stored.includes(` ${s} `));
  return rng.pick(others.length > 0 ? others : spellings);
}
