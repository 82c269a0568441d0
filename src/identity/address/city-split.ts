/**
 * Where the street line ends and the city begins, in the tokens before the state.
 *
 * 1. After a comma the last field is the city (`…St, Apt 4, Springfield`), minus a unit written
 *    at its start (`…St, Apt 4 Springfield`).
 * 2. Otherwise the longest run of final words that the ZIP reference knows as a city of the
 *    state (`…Shadow Ridge Ln Apt 103 Louisville`, `…Main St Park City`, `…Rd W Palm Beach`),
 *    as long as a street is left before it and no digit is in it.
 * 3. Otherwise the street is read forwards — number, name up to the first common suffix (or a
 *    route number), a post-directional, units — and the rest is the city.
 */
import { directionalOf, isCommonSuffix, postDirectionalOf, routePrefixAt, suffixOf, unitDesignatorOf } from './pub28.js';
import { boxAt } from './street-box.js';
import { isFloorBefore } from './street-unit.js';
import { COMMA, isHouseNumber, isUnitId } from './tokens.js';

export interface CitySplit {
  street: string[];
  city: string[];
}

/** Answers whether `words` (upper-case tokens) name a city of `state`. */
export type KnownCity = (words: readonly string[], state: string) => boolean;

/** Index after the unit that starts at `at` (`APT 4`, `# 4`, `REAR`, `27TH FL`), or `at`. */
function afterUnit(tokens: readonly string[], at: number): number {
  const token = tokens[at] ?? '';
  if (isFloorBefore(tokens, at)) return at + 2;
  const designator = unitDesignatorOf(token);
  if (designator === undefined) return at;
  if (tokens[at + 1] === '#' && isUnitId(tokens[at + 2])) return at + 3;
  if (isUnitId(tokens[at + 1])) return at + 2;
  return designator.requiresRange ? at : at + 1;
}

function afterUnits(tokens: readonly string[], at: number): number {
  for (let guard = 0; guard < 8; guard++) {
    const next = afterUnit(tokens, at);
    if (next === at) return at;
    at = next;
  }
  return at;
}

/** Index after a house number (and its fraction or letter), or `at` when there is none. */
function afterNumber(tokens: readonly string[], at: number): number {
  if (tokens[at] === '#') at++;
  if (/^[NSEW]\d+$/.test(tokens[at] ?? '') && /^[NSEW]\d+$/.test(tokens[at + 1] ?? '')) return at + 2;
  if (!isHouseNumber(tokens[at]) && !/^\d+[NSEW]$/.test(tokens[at] ?? '')) return at;
  at++;
  if (/^\d+\/\d+$/.test(tokens[at] ?? '')) at++;
  return at;
}

/** Where the street's own words start: after a leading unit and the house number. */
function streetStart(tokens: readonly string[]): number {
  let at = 0;
  const lead = afterUnit(tokens, 0);
  if (lead > 0 && (isHouseNumber(tokens[lead]) || boxAt(tokens, lead))) at = lead;
  return afterNumber(tokens, at);
}

/** End of the street line when reading forwards (rule 3). */
function streetEnd(tokens: readonly string[]): number {
  return readStreet(tokens).end;
}

/** `bySuffix`: the street ended at a suffix with a name before it, or at a box. */
function readStreet(tokens: readonly string[]): { end: number; bySuffix: boolean } {
  let at = 0;
  const lead = afterUnit(tokens, 0);
  if (lead > 0 && (isHouseNumber(tokens[lead]) || boxAt(tokens, lead))) at = lead;
  const box = boxAt(tokens, at);
  if (box) return { end: afterUnits(tokens, box.next), bySuffix: true };
  at = afterNumber(tokens, at);
  if (at >= tokens.length) return { end: tokens.length, bySuffix: false };
  let nameAt = at;
  if (directionalOf(tokens[at]!) && at + 1 < tokens.length) nameAt = at + 1;
  let end: number | undefined;
  const route = routePrefixAt(tokens, nameAt);
  if (route && nameAt + route.length < tokens.length) end = nameAt + route.length + 1;
  // The first common suffix (`… HYDE PARK BLVD CHICAGO`), else the first suffix at all.
  for (let q = nameAt + 1; end === undefined && q < tokens.length; q++) if (isCommonSuffix(suffixOf(tokens[q]!))) end = q + 1;
  for (let q = nameAt + 1; end === undefined && q < tokens.length; q++) if (suffixOf(tokens[q]!)) end = q + 1;
  const bySuffix = end !== undefined && route === undefined;
  end ??= nameAt + 1;
  const post = tokens[end];
  // A directional after the street is the street's (`HWY 104 N CEDAR GROVE`, `39TH TERRACE
  // NORTH ST PETERSBURG`); a city that starts with one (`WEST SALEM`) is found by name first.
  if (post !== undefined && postDirectionalOf(post)) end++;
  return { end: afterUnits(tokens, end), bySuffix };
}

function withoutCommas(tokens: readonly string[]): string[] {
  return tokens.filter((token) => token !== COMMA);
}

/** Index after the last token with a digit: city names have none (`…, AF 1025 AUGUSTA`). */
function afterDigits(tokens: readonly string[]): number {
  for (let k = tokens.length - 1; k >= 0; k--) if (/\d/.test(tokens[k]!) || tokens[k] === '#') return k + 1;
  return 0;
}

function splitWithoutComma(tokens: readonly string[], state: string | undefined, known: KnownCity | undefined): CitySplit {
  const at = (k: number): CitySplit => ({ street: tokens.slice(0, k), city: tokens.slice(k) });
  // `Soldotna, AK 99669`, `Columbia Falls, MT`: no number, no common suffix — only a city.
  const noStreet = afterDigits(tokens) === 0 && boxAt(tokens, 0) === undefined && !tokens.some((token) => isCommonSuffix(suffixOf(token)));
  if (noStreet || (state !== undefined && known?.(tokens, state))) return at(0);
  if (state !== undefined && known !== undefined) {
    const first = Math.max(streetStart(tokens) + 1, afterDigits(tokens), 1);
    for (let k = first; k < tokens.length; k++) {
      // `… DR S E GRAND RAPIDS`: the E pairs with the S before it, so East Grand Rapids is not read.
      if (/^[EW]$/.test(tokens[k]!) && /^[NS]$/.test(tokens[k - 1]!)) continue;
      if (known(tokens.slice(k), state)) return at(k);
    }
  }
  return at(Math.max(streetEnd(tokens), afterDigits(tokens)));
}

/** `NW`, `N W`, `S.W.` at the start of a field: the post-directional of the street before it. */
function leadingPostDirectional(field: readonly string[]): number {
  if (field.length >= 3 && /^[NS]$/.test(field[0]!) && /^[EW]$/.test(field[1]!)) return 2;
  if (field.length >= 2 && field[0]!.length === 2 && directionalOf(field[0]!)) return 1;
  return 0;
}

export function splitCity(span: readonly string[], state: string | undefined, known?: KnownCity): CitySplit {
  const lastComma = span.lastIndexOf(COMMA);
  if (lastComma < 0) return splitWithoutComma(span, state, known);
  const before = withoutCommas(span.slice(0, lastComma));
  const field = span.slice(lastComma + 1);
  if (isHouseNumber(field[0]) || boxAt(field, 0)) {
    const split = splitWithoutComma(field, state, known);
    return { street: [...before, ...split.street], city: split.city };
  }
  // `…Road, NW Atlanta`, `…Street, NE Suite 2000 Atlanta`, `…, AF 1025 Augusta`.
  const cityAt = Math.max(afterUnits(field, leadingPostDirectional(field)), afterDigits(field));
  return { street: [...before, ...field.slice(0, cityAt)], city: field.slice(cityAt) };
}

/**
 * A city with no state or ZIP to anchor it: the field after the last comma
 * (`430 Webster St, Palo Alto`), or up to three words after a street that ends in a suffix or a
 * box (`1850 Green Bay Road Highland Park`, `PO Box 1128 Lake Villa`). A first word that could
 * be part of a street line — a suffix, unit or directional word, a lone letter — leaves it all
 * in the street.
 */
export function cityWithoutState(tokens: readonly string[]): CitySplit {
  const plain = (words: readonly string[]): boolean =>
    words.length >= 1 &&
    words.length <= 4 &&
    afterDigits(words) === 0 &&
    afterUnits(words, 0) === 0 &&
    boxAt(words, 0) === undefined &&
    !words.every((word) => directionalOf(word) !== undefined);
  const lastComma = tokens.lastIndexOf(COMMA);
  if (lastComma >= 0) {
    const field = tokens.slice(lastComma + 1);
    return plain(field) ? { street: withoutCommas(tokens.slice(0, lastComma)), city: field } : { street: withoutCommas(tokens), city: [] };
  }
  const { end, bySuffix } = readStreet(tokens);
  const tail = tokens.slice(end);
  const first = tail[0];
  const box = boxAt(tokens, streetStart(tokens)) !== undefined;
  const streetLike = (word: string): boolean => word.length < 3 || isCommonSuffix(suffixOf(word)) || unitDesignatorOf(word) !== undefined;
  if (first === undefined || !bySuffix || tail.length > 3 || !plain(tail) || tail.some(streetLike))
    return { street: [...tokens], city: [] };
  if ((!box && suffixOf(first) !== undefined) || directionalOf(first) !== undefined) return { street: [...tokens], city: [] };
  return { street: tokens.slice(0, end), city: tail };
}
