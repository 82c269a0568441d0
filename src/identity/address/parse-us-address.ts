/**
 * A full US address (street line, city, state, ZIP in one string, commas optional) split into
 * the ParsedStreet parts plus city, state and ZIP: the last line is read from the right
 * (last-line.ts), the city cut off the street (city-split.ts, with the ZIP reference's city
 * names from ../postal), and the street line parsed by parse-street.ts.
 *
 * parse-address's `parseLocation` is not on this path; it is the baseline we measured against
 * (`measureParseAddressBaseline` in test/evaluation/address/address-accuracy.ts). On the usaddress corpus it gets about
 * 70 % of components right against our 95 %: its one regular expression takes the first
 * suffix-like word as the suffix (`Shadow RIDGE Ln`), reads `&` in a name as an intersection,
 * keeps city words in the street when there is no comma, and returns null outside its grammar.
 * Used as a second opinion for the city where ours had no evidence (no comma, no city the ZIP
 * reference knows), it fixed 9 cities but moved the street/city boundary wrongly in as many
 * rows, costing 10 names and 9 suffixes; so it was left out. Its own test table is kept as a
 * corpus, and we reproduce it exactly.
 */
import { stateOfZip, zip5sFor } from '../postal/index.js';
import { normalizeCityTokens } from './city-name.js';
import { cityWithoutState, splitCity, type CitySplit, type KnownCity } from './city-split.js';
import { takeLastLine } from './last-line.js';
import { directionalOf, routePrefixAt, stateOf, suffixOf, unitDesignatorOf } from './pub28.js';
import { parseStreetTokens, settleStreet, type ParsedStreet } from './parse-street.js';
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
  return (
    directionalOf(token) !== undefined ||
    suffixOf(token) !== undefined ||
    unitDesignatorOf(token) !== undefined ||
    routePrefixAt([token], 0) !== undefined
  );
}

function withPlace(
  street: ParsedStreet,
  city: string,
  state: string | undefined,
  zip5: string | undefined,
  plus4: string | undefined,
): ParsedUsAddress {
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
    if (
      last.zip5 === undefined &&
      (split.city.length === 0 ? last.weakState || streetWord : streetWord && !knownCity(split.city, state!))
    ) {
      state = undefined;
      split = cityWithoutState(tokens);
    }
  }
  return withPlace(settleStreet(parseStreetTokens(split.street)), normalizeCityTokens(split.city), state, last.zip5, last.plus4);
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
