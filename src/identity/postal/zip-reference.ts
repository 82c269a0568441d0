/**
 * The US ZIP Code reference (the `zipcodes` npm package, see data-source.md) and the check that a
 * postal address is a real one: the ZIP exists, lies in the state given, and agrees with the city
 * given. The package is loaded on first use; its own object serves ZIP lookups, and the only index
 * built (city and state → ZIPs) is built when a lookup by city first needs it.
 */
import { createRequire } from 'node:module';
import type { ZipcodesPlace } from 'zipcodes';
import { cityKey } from './city-key.js';
import { cityNotInState, INVALID_STATE, INVALID_ZIP, MISSING_POSTAL, zipNotFound, zipNotInCity, zipNotInState } from './postal-reasons.js';

export interface PostalQuery {
  zip?: string;
  city?: string;
  state?: string;
}

/**
 * On success `city` and `state` are the reference's: the USPS preferred city name of the ZIP (e.g.
 * `Saint Louis`; `Spring` for 77380 even when given with `Conroe`), or of the city found.
 */
export type PostalCheck = { ok: true; zip5?: string; plus4?: string; city?: string; state?: string } | { ok: false; reason: string };

type Codes = Readonly<Record<string, ZipcodesPlace>>;

let codes: Codes | undefined;

/**
 * Loads the reference now rather than on the first check (150–250 ms and 9 MB: the package is one
 * 5 MB object literal), e.g. at start-up so no request pays for it.
 */
export function loadZipReference(): void {
  codes ??= (createRequire(import.meta.url)('zipcodes') as typeof import('zipcodes')).codes;
}

function reference(): Codes {
  loadZipReference();
  return codes!;
}

/** The US entry of a ZIP5; the package also holds Canadian areas, which are not US ZIP Codes. */
function usPlace(zip5: string): ZipcodesPlace | undefined {
  if (typeof zip5 !== 'string' || !/^\d{5}$/.test(zip5)) return undefined;
  const all = reference();
  if (!Object.hasOwn(all, zip5)) return undefined;
  const place = all[zip5]!;
  return place.country === 'US' ? place : undefined;
}

// About 19,000 distinct reference city names; each key is worked out once.
const referenceKeys = new Map<string, string>();

function referenceKey(city: string): string {
  let key = referenceKeys.get(city);
  if (key === undefined) referenceKeys.set(city, (key = cityKey(city)));
  return key;
}

// State → city key → ZIP5s. Nested rather than keyed by `state + city` so the keys are the
// strings `referenceKey` already holds, not 30,000 new ones.
let byCityState: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>> | undefined;

function cityStateIndex(): ReadonlyMap<string, ReadonlyMap<string, readonly string[]>> {
  if (byCityState !== undefined) return byCityState;
  const index = new Map<string, Map<string, string[]>>();
  for (const place of Object.values(reference())) {
    if (place.country !== 'US') continue;
    let cities = index.get(place.state);
    if (cities === undefined) index.set(place.state, (cities = new Map()));
    const key = referenceKey(place.city);
    const zips = cities.get(key);
    if (zips === undefined) cities.set(key, [place.zip]);
    else zips.push(place.zip);
  }
  for (const cities of index.values()) for (const zips of cities.values()) zips.sort();
  byCityState = index;
  return index;
}

export function stateOfZip(zip5: string): string | undefined {
  return usPlace(zip5)?.state;
}

/** The USPS preferred city name the ZIP is filed under. */
export function cityOfZip(zip5: string): string | undefined {
  return usPlace(zip5)?.city;
}

/** Every ZIP5 of a city in a state (city compared as in `checkPostal`), sorted; `[]` when none. */
export function zip5sFor(city: string, state: string): string[] {
  const key = cityKey(textOf(city));
  const st = textOf(state).toUpperCase();
  if (key === '' || !/^[A-Z]{2}$/.test(st)) return [];
  return [...(cityStateIndex().get(st)?.get(key) ?? [])];
}

/**
 * USPS accepts other city names than the one a ZIP is filed under (`The Woodlands` for a ZIP of
 * `Spring`), and the reference has one city per ZIP. So a city also agrees when it is the
 * reference city of another ZIP in the same state with the same first three digits (the same
 * sectional centre). A name no ZIP is filed under (The Woodlands itself) still fails: see
 * data-source.md. Scanning the hundred ZIPs of the prefix costs less than an index.
 */
function inSectionalCentre(zip5: string, state: string, key: string): boolean {
  const prefix = zip5.slice(0, 3);
  for (let i = 0; i < 100; i++) {
    const place = usPlace(`${prefix}${i < 10 ? '0' : ''}${i}`);
    if (place !== undefined && place.state === state && referenceKey(place.city) === key) return true;
  }
  return false;
}

// The API parses parameters as strings, but this is a boundary: anything else is treated as absent.
function textOf(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/**
 * Whether a US postal address is real, as far as ZIP, city and state go. With a ZIP: it is five
 * digits or a ZIP+4 (`12345-6789` or `123456789`), exists, is in the state given, and agrees with
 * the city given (see `inSectionalCentre`). Without one: the city and state are both given and
 * the city has a ZIP in that state. Never throws.
 */
export function checkPostal(q: PostalQuery): PostalCheck {
  const query: PostalQuery = typeof q === 'object' && q !== null ? q : {};
  const zip = textOf(query.zip);
  const city = textOf(query.city);
  const stateText = textOf(query.state);
  // Tested before upper-casing: `ß`.toUpperCase() is `SS`.
  if (stateText !== '' && !/^[A-Za-z]{2}$/.test(stateText)) return { ok: false, reason: INVALID_STATE };
  const state = stateText.toUpperCase();

  if (zip !== '') {
    const match = /^(\d{5})(?:-?(\d{4}))?$/.exec(zip);
    if (match === null) return { ok: false, reason: INVALID_ZIP };
    const zip5 = match[1]!;
    const plus4 = match[2];
    const place = usPlace(zip5);
    if (place === undefined) return { ok: false, reason: zipNotFound(zip5) };
    if (state !== '' && state !== place.state) return { ok: false, reason: zipNotInState(zip5, state) };
    if (city !== '') {
      const key = cityKey(city);
      const agrees = key !== '' && (referenceKey(place.city) === key || inSectionalCentre(zip5, place.state, key));
      if (!agrees) return { ok: false, reason: zipNotInCity(zip5, city) };
    }
    return plus4 === undefined
      ? { ok: true, zip5, city: place.city, state: place.state }
      : { ok: true, zip5, plus4, city: place.city, state: place.state };
  }

  if (city === '' || state === '') return { ok: false, reason: MISSING_POSTAL };
  const zips = zip5sFor(city, state);
  if (zips.length === 0) return { ok: false, reason: cityNotInState(city, state) };
  return { ok: true, city: cityOfZip(zips[0]!)!, state };
}
