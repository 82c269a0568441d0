/**
 * A full US address (street line, city, state, ZIP in one string, commas optional) split into
 * the ParsedStreet parts plus city, state and ZIP.
 *
 * parse-address (`parseLocation`) is used as a second opinion only. Measured on the corpora (see
 * address-accuracy.ts and `measureParseAddressBaseline`), on its own it finds the right street
 * name in about half the usaddress rows and the right city in under 60 %: its one regular
 * expression takes the first suffix-like word (`Shadow RIDGE Ln`), reads `&` as an intersection
 * and returns null on anything outside its grammar. Our own reading (last-line.ts,
 * city-split.ts, parse-street.ts) decides; parse-address is consulted where ours has no
 * evidence of its own — no comma, no city the ZIP reference knows — and its city agrees with a
 * run of final words.
 */
import parseAddress from 'parse-address';
import { cityOfZip, stateOfZip, zip5sFor } from '../postal/index.js';
import { normalizeCityTokens } from './city-name.js';
import { cityWithoutState, splitCity, type CitySplit, type KnownCity } from './city-split.js';
import { takeLastLine } from './last-line.js';
import { directionalOf, routePrefixAt, stateOf, suffixOf, unitDesignatorOf } from './pub28.js';
import { parseStreetTokens, type ParsedStreet } from './parse-street.js';
import { COMMA, tokenize } from './tokens.js';

export type ParsedUsAddress = ParsedStreet & {
  /** Upper-case, `SAINT`/`FORT`/`MOUNT` and a leading directional spelled out. */
  city?: string;
  /** Two-letter USPS code. */
  state?: string;
  zip5?: string;
  plus4?: string;
};

const knownCity: KnownCity = (words, state) => {
  const city = normalizeCityTokens(words);
  return city !== '' && zip5sFor(city, state).length > 0;
};

function isStreetWord(token: string): boolean {
  return directionalOf(token) !== undefined || suffixOf(token) !== undefined || unitDesignatorOf(token) !== undefined || routePrefixAt([token], 0) !== undefined;
}

function withPlace(street: ParsedStreet, city: string, state: string | undefined, zip5: string | undefined, plus4: string | undefined): ParsedUsAddress {
  return {
    ...street,
    ...(city !== '' && { city }),
    ...(state !== undefined && { state }),
    ...(zip5 !== undefined && { zip5 }),
    ...(plus4 !== undefined && { plus4 }),
  };
}

export function parseUsAddress(full: string): ParsedUsAddress {
  const tokens = tokenize(full);
  const last = takeLastLine(tokens);
  let state = last.state;
  const referenceState = state ?? (last.zip5 !== undefined ? stateOfZip(last.zip5) : undefined);
  let split: CitySplit;
  if (state === undefined && last.zip5 === undefined) {
    split = cityWithoutState(tokens);
  } else {
    split = splitCity(tokens.slice(0, last.spanEnd), referenceState, knownCity);
    split = { street: split.street, city: withoutState(split.city, state) };
    // Without a ZIP, a state that is also a street word (`NE`, `FL`, `CT`) needs a city the
    // reference knows in that state before it (`159 The Prado NE` is a street in Atlanta, not
    // Nebraska; `1180 Peachtree St, NE` its post-directional), and any state needs some city or
    // a comma before it.
    const streetWord = isStreetWord(tokens[last.stateStart]!);
    if (last.zip5 === undefined && (split.city.length === 0 ? last.weakState || streetWord : streetWord && !knownCity(split.city, state!))) {
      state = undefined;
      split = cityWithoutState(tokens);
    }
  }
  return withPlace(parseStreetTokens(split.street), normalizeCityTokens(split.city), state, last.zip5, last.plus4);
}

/** `Roswell, Georgia, GA`, `Memphis TN, TN`: the state written twice is not part of the city. */
function withoutState(city: readonly string[], state: string | undefined): string[] {
  const words = city.filter((token) => token !== COMMA);
  // `New York, NY` keeps its city: a state name is dropped only with a city before it.
  for (let k = Math.max(1, words.length - 4); state !== undefined && k < words.length; k++) {
    if (stateOf(words.slice(k).join(' ')) === state) return words.slice(0, k);
  }
  return words;
}

