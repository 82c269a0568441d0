/**
 * A US delivery address line (no city, state or ZIP) split into Publication 28 components.
 *
 * The line is read left to right for what only appears at its start (a leading unit, a PO Box
 * or rural route box, the house number), then the unit is cut off the end, and the rest — the
 * street proper — is read by street-core.ts.
 *
 * Total: any string gives a result (`name: ''` when there is nothing like a street), and the
 * tokenizer caps the work on long input.
 */
import { houseNumber } from './house-number.js';
import { directionalOf, isCommonSuffix, postDirectionalOf, routePrefixAt, suffixOf, unitDesignatorOf } from './pub28.js';
import { boxAt } from './street-box.js';
import { endsWithRouteWord, streetCore } from './street-core.js';
import { isFloorBefore, unitFrom, unitStart, type Unit } from './street-unit.js';
import { COMMA, hasDigit, isHouseNumber, isUnitId, tokenize } from './tokens.js';

export interface ParsedStreet {
  /** House number as written, upper-case: `123`, `123-B`, `12 1/2`, `N165 W2123`. */
  number?: string;
  /** Publication 28 directional before the name: `N`, `SW`. */
  preDirectional?: string;
  /** Upper-case, punctuation removed, ordinals as `1ST`, route words spelled out; `''` if none. */
  name: string;
  /** Publication 28 standard suffix abbreviation: `ST`, `AVE`. */
  suffix?: string;
  postDirectional?: string;
  /** Publication 28 secondary unit designator: `APT`, `STE`, `UNIT`, `#`; absent for a bare trailing unit number. */
  unitType?: string;
  unitId?: string;
}

function result(parts: Omit<ParsedStreet, 'unitType' | 'unitId'>, unit: Unit | undefined): ParsedStreet {
  // Keys in one order and only when set, so equal parses are deep-equal whatever path built them.
  return {
    ...(parts.number && { number: parts.number }),
    ...(parts.preDirectional && { preDirectional: parts.preDirectional }),
    name: parts.name,
    ...(parts.suffix && { suffix: parts.suffix }),
    ...(parts.postDirectional && { postDirectional: parts.postDirectional }),
    ...(unit?.type && { unitType: unit.type }),
    ...(unit?.id && { unitId: unit.id }),
  };
}

/**
 * `APT 4 123 Main St`, `#42 233 S Wacker Dr`, `Suite 200 Bldg 17 7000 Peachtree Rd`: units
 * written before the house number, or a line that is nothing but units (`Bldg 15, Suite 100`).
 */
function leadingUnit(tokens: readonly string[]): { unit: Unit; next: number } | undefined {
  let next = 0;
  while (next < tokens.length) {
    const designator = unitDesignatorOf(tokens[next]!);
    if (isFloorBefore(tokens, next) || (designator?.requiresRange && isUnitId(tokens[next + 1]))) next += 2;
    else break;
  }
  if (next === 0) return undefined;
  // `APT 4 123` with nothing after the number: all unit, there is no street to number.
  if (next === tokens.length - 1 && isHouseNumber(tokens[next])) next++;
  if (next < tokens.length && !isHouseNumber(tokens[next]) && boxAt(tokens, next) === undefined) return undefined;
  return { unit: unitFrom(tokens.slice(0, next), 0), next };
}

/**
 * `DEPT 3234 PO BOX 123234`, `MAIL CODE 5021 PO BOX 660367`: words and a number before a PO
 * Box are a department or mail code — a unit of the box, whatever the words.
 */
function unitBeforeBox(tokens: readonly string[]): { unit: Unit; next: number } | undefined {
  if (routePrefixAt(tokens, 0) !== undefined) return undefined;
  for (let k = 2; k <= Math.min(4, tokens.length); k++) {
    if (boxAt(tokens, k) === undefined) continue;
    const words = tokens.slice(0, k).filter((token) => token !== '#');
    const id = words[words.length - 1];
    if (words.length < 2 || !hasDigit(id) || !isUnitId(id) || !words.slice(0, -1).every(isUnitWord)) return undefined;
    const type = words.slice(0, -1).map((word) => unitDesignatorOf(word)?.abbreviation ?? word).join(' ');
    return { unit: { type, id: id! }, next: k };
  }
  return undefined;
}

/**
 * `203 N WABASH 608`, `111 W MONROE, 12C`: a number after the street with no designator is the
 * unit, unless it is the street's own number (`US HIGHWAY 50`, `N 10`, `HIGHWAY NO 130`).
 */
function bareUnitAt(tokens: readonly string[], from: number, end: number): number {
  const last = tokens[end - 1];
  if (end - from < 2 || !hasDigit(last) || /^\d+(ST|ND|RD|TH)$/.test(last!)) return end;
  const before = tokens.slice(from, end - 1).filter((token) => token !== COMMA && token !== '#');
  if (before.length === 0 || before[before.length - 1] === 'NO' || endsWithRouteWord(before)) return end;
  const words = before.filter((token) => directionalOf(token) === undefined);
  // `N 10`, `F 41` (Michigan's F-41): a number after a lone letter or directional is the road's.
  if (words.length === 0 || (words.length === 1 && words[0]!.length === 1)) return end;
  const named = streetCore(before, undefined);
  const ended = named.suffix !== undefined || named.postDirectional !== undefined;
  const bare = named.name !== '' && (ended || (/[A-Z]/.test(named.name) && !/\d/.test(named.name.split(' ').pop()!)));
  return bare ? end - 1 : end;
}

/**
 * `123 MAIN ST SPRINGFIELD`: plain words after a common suffix (and its directional) are not
 * street — a city with no state, a building name — and are dropped, as long as a name stands
 * before the suffix (`N ST LOUIS` is the street St Louis).
 */
function junkAfterSuffix(tokens: readonly string[], from: number, end: number): number {
  for (let s = from + 1; s < end - 1; s++) {
    if (!isCommonSuffix(suffixOf(tokens[s]!))) continue;
    if (tokens.slice(from, s).every((token) => directionalOf(token) !== undefined || token === '#')) continue;
    // `COUNTY ROAD Y`: the suffix word is part of a route's name.
    if (endsWithRouteWord(tokens.slice(from, s + 1))) return end;
    let j = s + 1;
    while (j < end && postDirectionalOf(tokens[j]!) !== undefined) j++;
    const rest = tokens.slice(j, end);
    const plain = rest.length > 0 && rest.every((token) => !hasDigit(token) && suffixOf(token) === undefined && directionalOf(token) === undefined && routePrefixAt([token], 0) === undefined);
    return plain ? j : end;
  }
  return end;
}

/** A word that can name a unit outside Appendix C2 (`FILE`, `LOCKBOX`, `MAIL CODE`). */
function isUnitWord(token: string): boolean {
  return /^[A-Z]{2,}$/.test(token) && unitDesignatorOf(token)?.abbreviation !== '#';
}

/**
 * `PO BOX 60000 FILE 73484`, `PO BOX 48 SUBSTATION # 1`: whatever follows a box and ends in a
 * number is its unit — Publication 28 designators, or the lockbox, file, bin and mail-code words
 * that box addresses carry.
 */
function unitAfterBox(tokens: readonly string[], from: number): Unit | undefined {
  if (from >= tokens.length) return undefined;
  if (unitStart(tokens, from, tokens.length) === from) return unitFrom(tokens, from);
  const rest = tokens.slice(from).filter((token) => token !== '#');
  const id = rest[rest.length - 1];
  if (rest.length < 2 || rest.length > 4 || !hasDigit(id) || !isUnitId(id) || !rest.slice(0, -1).every(isUnitWord)) return undefined;
  return { type: rest.slice(0, -1).join(' '), id: id! };
}

/** A unit before the house number and one after it (`DEPT PN-12 1500 S HICKS RD STE 400`) are kept as one. */
function joinUnits(first: Unit | undefined, second: Unit): Unit {
  if (first === undefined) return second;
  return { type: first.type, id: [first.id, second.type, second.id].filter((part) => part).join(' ') };
}

export function parseStreetTokens(all: readonly string[]): ParsedStreet {
  const tokens = all.filter((token) => token !== COMMA);
  let start = 0;
  let unit: Unit | undefined;
  const lead = leadingUnit(tokens) ?? (boxAt(tokens, 0) ? undefined : unitBeforeBox(tokens));
  if (lead) {
    unit = lead.unit;
    start = lead.next;
  }

  const box = boxAt(tokens, start);
  if (box) {
    // `RR 4 BOX 164 A`: a letter written apart after the box number belongs to it.
    const after = box.next + 1;
    const lettered = /^[A-DF-MO-RT-VX-Z]$/.test(tokens[box.next] ?? '') && (after === tokens.length || unitStart(tokens, after, tokens.length) === after);
    const number = lettered ? `${box.number} ${tokens[box.next]}` : box.number;
    return result({ number, name: box.name }, unit ?? unitAfterBox(tokens, lettered ? after : box.next));
  }

  const house = houseNumber(tokens, start);
  let end = tokens.length;
  // `110 W Edwards PO Box 5000`: a street and a box on one line; the street is the address.
  // A bare `BOX` there needs its number right after it: `MAIN BOX # 5` keeps box and unit apart.
  for (let k = house.next + 1; k < end; k++) {
    const trailingBox = boxAt(tokens, k);
    const bare = tokens[k] === 'BOX' && !/^\d/.test(tokens[k + 1] ?? '');
    if (trailingBox && trailingBox.next === end && !bare) {
      end = k;
      break;
    }
  }
  // A designator and its number right after the house number are the whole line's unit
  // (`123 # 12`); any other word there starts the street (`100 FRONT ST`).
  const atStart = house.number !== undefined && unitDesignatorOf(tokens[house.next] ?? '')?.requiresRange && unitStart(tokens, house.next, end) === house.next && isUnitId(tokens[house.next + 1]);
  const cut = atStart ? house.next : unitStart(tokens, house.next + 1, end);
  if (cut < end) {
    unit = joinUnits(unit, unitFrom(tokens.slice(0, end), cut));
    end = cut;
  }
  if (house.number !== undefined && unit === undefined) {
    const bare = bareUnitAt(tokens, house.next, end);
    if (bare < end) {
      unit ??= { type: '', id: tokens[bare]! };
      end = bare;
    }
  }
  end = junkAfterSuffix(tokens, house.next, end);
  const street = streetCore(tokens.slice(house.next, end), house.preDirectional);
  return result({ number: house.number, ...street }, unit);
}

export function parseStreet(line: string): ParsedStreet {
  return parseStreetTokens(tokenize(line));
}
