// Migration 0005's frozen copy of identity/address/street-tail.ts as it stood at the freeze (frozen/0005-blocking.ts): never edit.
/**
 * The end of a street line that is neither street nor a designated unit: a bare unit number
 * (`203 N WABASH 608`) and whatever follows a common suffix (`123 MAIN ST SPRINGFIELD`).
 */
import { directionalOf, isCommonSuffix, postDirectionalOf, routePrefixAt, suffixOf, unitDesignatorOf } from './pub28.js';
import { endsWithRouteWord } from './route-words.js';
import { streetCore } from './street-core.js';
import type { Unit } from './street-unit.js';
import { COMMA, hasDigit } from './tokens.js';

/**
 * `203 N WABASH 608`, `111 W MONROE, 12C`: a number after the street with no designator is the
 * unit, unless it is the street's own number (`US HIGHWAY 50`, `N 10`, `HIGHWAY NO 130`).
 */
export function bareUnitAt(tokens: readonly string[], from: number, end: number, gluedPre: string | undefined): number {
  const last = tokens[end - 1];
  if (end - from < 2 || !hasDigit(last) || /^\d+(ST|ND|RD|TH)$/.test(last!)) return end;
  const before = tokens.slice(from, end - 1).filter((token) => token !== COMMA && token !== '#');
  if (before.length === 0 || before[before.length - 1] === 'NO' || endsWithRouteWord(before)) return end;
  const words = before.filter((token) => directionalOf(token) === undefined);
  // `N 10`, `F 41` (Michigan's F-41): a number after a lone letter or directional is the road's.
  if (words.length === 0 || (words.length === 1 && words[0]!.length === 1)) return end;
  const named = streetCore(before, gluedPre);
  const ended = named.suffix !== undefined || named.postDirectional !== undefined;
  const bare = named.name !== '' && (ended || (/[A-Z]/.test(named.name) && !/\d/.test(named.name.split(' ').pop()!)));
  return bare ? end - 1 : end;
}

/**
 * What follows a common suffix (and its directional) that no rule has claimed: not street.
 * Plain words are dropped — a city with no state, a building name (`123 MAIN ST SPRINGFIELD`);
 * words with a number are the unit, as parse-address reads them (`4101 WINNFIELD RD 106 D`,
 * `47 S MERIDAN ST 2 FLOOR`). Left alone when a suffix or route word follows (`AVON ST EXT`),
 * or when no name stands before the suffix (`N ST LOUIS` is the street St Louis).
 */
export function afterSuffix(tokens: readonly string[], from: number, end: number): { end: number; unit?: Unit } {
  for (let s = from + 1; s < end - 1; s++) {
    if (!isCommonSuffix(suffixOf(tokens[s]!))) continue;
    if (tokens.slice(from, s).every((token) => directionalOf(token) !== undefined || token === '#')) continue;
    // `COUNTY ROAD Y`: the suffix word is part of a route's name.
    if (endsWithRouteWord(tokens.slice(from, s + 1))) return { end };
    let j = s + 1;
    while (j < end && postDirectionalOf(tokens[j]!) !== undefined) j++;
    const rest = tokens.slice(j, end);
    if (rest.length === 0 || rest.some((token) => suffixOf(token) !== undefined || routePrefixAt([token], 0) !== undefined)) return { end };
    if (!rest.some(hasDigit)) return { end: j };
    return {
      end: j,
      unit: {
        type: '',
        id: rest
          .filter((token) => token !== '#')
          .map((token) => unitDesignatorOf(token)?.abbreviation ?? token)
          .join(' '),
      },
    };
  }
  return { end };
}
