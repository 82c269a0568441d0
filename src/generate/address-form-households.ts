/**
 * A small population for the identity evaluation of address forms (issue 30): households whose
 * street lines take the forms the main generator never writes, each stored in one form and asked
 * in others by address-form-variants.ts.
 *
 * - `state-highway`: `1200 State Hwy 61` (or `SR 61`, `State Route 61`, `Hwy 61`…);
 * - `county-road`: `4100 County Road 5` (`CR 5`, `Co Rd 5`…);
 * - `rural-route`: `RR 2 Box 152` (`Rural Route 2, Box 152`…);
 * - `lettered-unit`: `12 Oak St Apt 3C`;
 * - `other-zip`: an ordinary street in a city of several ZIPs (data/us-zips.tsv), asked with
 *   another ZIP of the same city.
 *
 * People come from `generatePeople` on the stream `${seed}/address-forms` (so every field an
 * import checks is a real generated value), one of each generated household, grouped here into
 * households at the first member's new address, with ids of their own (`A0000001`, households
 * `HA000001`) and no email.
 */
import { AddressMaker } from './address.js';
import { householdHeads } from './household-heads.js';
import type { GeneratedPerson } from './people.js';
import { Rng } from './random.js';
import { usZipPlaces, type ZipPlace } from './reference-data.js';

export const ADDRESS_FORM_HOUSEHOLD_KINDS = ['state-highway', 'county-road', 'rural-route', 'lettered-unit', 'other-zip'] as const;
export type AddressFormHouseholdKind = (typeof ADDRESS_FORM_HOUSEHOLD_KINDS)[number];

/** What a street line is made of, so the variants can write it another way. */
export type AddressForm =
  | { kind: 'state-highway' | 'county-road'; house: string; road: string; unit?: string }
  | { kind: 'rural-route'; route: string; box: string }
  | { kind: 'lettered-unit' | 'other-zip'; line: string; number: string; letter: string; designator: string };

export interface AddressFormHousehold {
  id: string;
  kind: AddressFormHouseholdKind;
  form: AddressForm;
  /** The other ZIPs of the household's city (`other-zip` only): a query may give one of them. */
  otherZips: readonly string[];
  members: GeneratedPerson[];
}

/** How each form is stored: the spelling a file loaded into the store gave. */
export const STORED_SPELLING: Readonly<Record<'state-highway' | 'county-road', readonly string[]>> = {
  'state-highway': ['State Hwy', 'State Highway', 'SR', 'State Route', 'St Hwy', 'Hwy', 'Highway', 'State Rd'],
  'county-road': ['County Road', 'County Rd', 'CR', 'Co Rd', 'CTY RD', 'Cnty Rd'],
};

const pad = (n: number) => String(n).padStart(6, '0');

export function* generateAddressFormHouseholds(options: {
  seed: string | number;
  households: number;
  today: string;
}): Generator<AddressFormHousehold> {
  const rng = new Rng(`${String(options.seed)}/address-forms/households`);
  const addresses = new AddressMaker();
  const cities = citiesWithSeveralZips();
  const next = householdHeads({
    count: options.households * 5 + 10,
    seed: `${String(options.seed)}/address-forms`,
    today: options.today,
    what: 'address-form',
  });
  let personCount = 0;
  for (let made = 0; made < options.households; made++) {
    const kind = ADDRESS_FORM_HOUSEHOLD_KINDS[made % ADDRESS_FORM_HOUSEHOLD_KINDS.length]!;
    const size = rng.int(1, 3);
    const base: GeneratedPerson[] = [];
    for (let i = 0; i < size; i++) base.push(next());
    const home = base[0]!;
    let place: ZipPlace = { zip: home.person.zip.slice(0, 5), city: home.person.city, state: home.person.state };
    let otherZips: string[] = [];
    if (kind === 'other-zip') {
      const city = rng.pick(cities);
      place = rng.pick(city);
      otherZips = city.filter((p) => p !== place).map((p) => p.zip);
    }
    const { form, line } = drawForm(kind, rng, addresses);
    const zip = `${place.zip}-${String(rng.int(1, 9999)).padStart(4, '0')}`;
    const id = `HA${pad(made + 1)}`;
    const members = base.map((m, i) => ({
      person: {
        ...m.person,
        person_id: `A${String(++personCount).padStart(7, '0')}`,
        emails: [],
        last_name: home.person.last_name,
        address: line,
        city: place.city,
        state: place.state,
        zip,
      },
      activity: [],
      truth: { ...m.truth, householdId: id, role: i === 0 ? m.truth.role : m.truth.role === 'single' ? 'child' : m.truth.role },
    }));
    // Another member with the first name (or its first letter) of one before: the variants' truth would blur.
    const unique = members.filter((m, i) => members.slice(0, i).every((o) => o.person.first_name[0] !== m.person.first_name[0]));
    yield { id, kind, form, otherZips, members: unique };
  }
}

function drawForm(kind: AddressFormHouseholdKind, rng: Rng, addresses: AddressMaker): { form: AddressForm; line: string } {
  switch (kind) {
    case 'state-highway':
    case 'county-road': {
      const house = String(rng.int(100, 29999));
      const road = String(kind === 'state-highway' ? rng.int(1, 299) : rng.int(1, 99));
      const unit = rng.chance(0.15) ? String(rng.int(1, 12)) : undefined;
      const spelling = rng.pick(STORED_SPELLING[kind]);
      return { form: { kind, house, road, ...(unit ? { unit } : {}) }, line: `${house} ${spelling} ${road}${unit ? ` Unit ${unit}` : ''}` };
    }
    case 'rural-route': {
      const route = String(rng.int(1, 9));
      const box = String(rng.int(1, 999));
      return { form: { kind, route, box }, line: `RR ${route} Box ${box}` };
    }
    case 'lettered-unit':
    case 'other-zip': {
      const street = addresses.draw(rng, false).street;
      const base = `${street.number}${street.predirectional ? ` ${street.predirectional}` : ''} ${street.name} ${street.suffix}`;
      const number = String(rng.int(1, 40));
      const letter = String.fromCharCode(65 + rng.below(8));
      const designator = kind === 'lettered-unit' ? rng.pick(['Apt', 'Unit', '#']) : '';
      const line = kind === 'lettered-unit' ? `${base} ${designator === '#' ? '#' : `${designator} `}${number}${letter}` : base;
      return { form: { kind, line: base, number, letter, designator }, line };
    }
  }
}

let severalZips: readonly (readonly ZipPlace[])[] | undefined;

/** The cities (and states) with at least two ZIPs in data/us-zips.tsv. */
function citiesWithSeveralZips(): readonly (readonly ZipPlace[])[] {
  if (severalZips !== undefined) return severalZips;
  const byCity = new Map<string, ZipPlace[]>();
  for (const place of usZipPlaces()) {
    const k = `${place.city}\u0000${place.state}`;
    const list = byCity.get(k);
    if (list === undefined) byCity.set(k, [place]);
    else list.push(place);
  }
  return (severalZips = [...byCity.values()].filter((zips) => zips.length >= 2));
}
