/**
 * Street addresses: a real ZIP/city/state from data/us-zips.tsv, a made-up street line in USPS
 * Publication 28 style (standard suffix and directional abbreviations, unit designators), and a
 * random +4. The parts are kept apart so that query variants can later be derived from the truth
 * (spelled-out suffix, missing unit, ZIP5 instead of ZIP+4).
 */
import { nameLists, usZipPlaces, type ZipPlace } from './reference-data.js';
import { rankWeights, WeightedTable, type Rng } from './random.js';

/** Publication 28 Appendix C1 standard abbreviations, with the weight of each. */
export const STREET_SUFFIXES: Readonly<Record<string, string>> = {
  St: 'Street',
  Ave: 'Avenue',
  Rd: 'Road',
  Dr: 'Drive',
  Ln: 'Lane',
  Blvd: 'Boulevard',
  Ct: 'Court',
  Way: 'Way',
  Pl: 'Place',
  Cir: 'Circle',
  Ter: 'Terrace',
  Pkwy: 'Parkway',
  Trl: 'Trail',
};
const SUFFIX_WEIGHTS: Readonly<Record<string, number>> = {
  St: 26,
  Ave: 18,
  Rd: 12,
  Dr: 14,
  Ln: 8,
  Blvd: 4,
  Ct: 6,
  Way: 4,
  Pl: 3,
  Cir: 2,
  Ter: 1,
  Pkwy: 1,
  Trl: 1,
};
/** Publication 28 Appendix B directionals. */
export const DIRECTIONALS: Readonly<Record<string, string>> = {
  N: 'North',
  S: 'South',
  E: 'East',
  W: 'West',
  NE: 'Northeast',
  NW: 'Northwest',
  SE: 'Southeast',
  SW: 'Southwest',
};
/** Publication 28 Appendix C2 secondary unit designators we use. */
export const UNIT_DESIGNATORS: Readonly<Record<string, string>> = { Apt: 'Apartment', Unit: 'Unit', Ste: 'Suite', '#': '#' };

export interface StreetAddress {
  number: string;
  predirectional?: string;
  name: string;
  suffix: string;
  postdirectional?: string;
  unitType?: string;
  unitNumber?: string;
}

export interface PostalAddress {
  street: StreetAddress;
  /** The formatted street line. */
  line: string;
  place: ZipPlace;
  /** ZIP+4. */
  zip: string;
}

export function formatStreet(s: StreetAddress): string {
  let line = s.number;
  if (s.predirectional) line += ` ${s.predirectional}`;
  line += ` ${s.name} ${s.suffix}`;
  if (s.postdirectional) line += ` ${s.postdirectional}`;
  if (s.unitType) line += ` ${s.unitType} ${s.unitNumber}`;
  return line;
}

function ordinal(n: number): string {
  const tens = n % 100;
  const end = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${end}`;
}

export class AddressMaker {
  private readonly places: readonly ZipPlace[] = usZipPlaces();
  private readonly streets: WeightedTable<string>;
  private readonly suffixes = new WeightedTable(Object.keys(SUFFIX_WEIGHTS), Object.values(SUFFIX_WEIGHTS));
  private readonly directionals = new WeightedTable(Object.keys(DIRECTIONALS), [5, 5, 5, 5, 1, 1, 1, 1]);

  constructor() {
    const names = nameLists().streets;
    this.streets = new WeightedTable(names, rankWeights(names.length));
  }

  /** A household's address; renters mostly live in units, owners seldom. */
  draw(rng: Rng, renter: boolean): PostalAddress {
    const place = this.places[rng.below(this.places.length)]!;
    const street: StreetAddress = { number: this.houseNumber(rng), name: '', suffix: this.suffixes.draw(rng) };
    if (rng.chance(0.14)) {
      street.name = ordinal(rng.chance(0.7) ? rng.int(1, 20) : rng.int(21, 140));
    } else {
      street.name = this.streets.draw(rng);
    }
    if (rng.chance(0.16)) street.predirectional = this.directionals.draw(rng);
    else if (rng.chance(0.03)) street.postdirectional = this.directionals.draw(rng);
    if (rng.chance(renter ? 0.6 : 0.04)) {
      const kind = rng.float();
      street.unitType = renter ? (kind < 0.72 ? 'Apt' : kind < 0.9 ? 'Unit' : '#') : kind < 0.8 ? 'Unit' : 'Ste';
      street.unitNumber = this.unitNumber(rng);
    }
    const plus4 = String(rng.int(1, 9999)).padStart(4, '0');
    return { street, line: formatStreet(street), place, zip: `${place.zip}-${plus4}` };
  }

  private houseNumber(rng: Rng): string {
    const r = rng.float();
    if (r < 0.1) return String(rng.int(1, 99));
    if (r < 0.48) return String(rng.int(100, 999));
    if (r < 0.9) return String(rng.int(1000, 9999));
    return String(rng.int(10000, 29999));
  }

  private unitNumber(rng: Rng): string {
    const r = rng.float();
    if (r < 0.45) return String(rng.int(1, 40));
    if (r < 0.8) return String(rng.int(1, 12) * 100 + rng.int(1, 24));
    return `${rng.int(1, 9)}${String.fromCharCode(65 + rng.below(6))}`;
  }
}
