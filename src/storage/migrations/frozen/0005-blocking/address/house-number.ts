// Migration 0005's frozen copy of identity/address/house-number.ts as it stood at the freeze (frozen/0005-blocking.ts): never edit.
/**
 * The house number at the start of a street line: digits with an optional letter or hyphenated
 * part (`123`, `123A`, `123-B`, `112-10`), a fraction (`12 1/2`), a lone letter written apart
 * (`4922 B South Cornell Ave`), Wisconsin grid numbers (`N165 W2123`), a Salt Lake City grid
 * number with its directional glued on (`48S 400E`), or a number word (`One Jelly Belly Ln`).
 * Kept as written, upper-case; Publication 28 does not rewrite house numbers.
 */
import { isCommonSuffix, postDirectionalOf, routePrefixAt, suffixOf } from './pub28.js';
import { unitStart } from './street-unit.js';
import { endsWithRouteWord } from './route-words.js';
import { COMMA, isHouseNumber } from './tokens.js';

export interface HouseNumber {
  number?: string;
  /** From a glued grid number: `48S` → number `48`, pre-directional `S`. */
  preDirectional?: string;
  /** Index of the first token after the number. */
  next: number;
}

export const GLUED_DIRECTION = /^(\d+)([NSEW])$/;

const NUMBER_WORDS = new Set([
  'ONE',
  'TWO',
  'THREE',
  'FOUR',
  'FIVE',
  'SIX',
  'SEVEN',
  'EIGHT',
  'NINE',
  'TEN',
  'ELEVEN',
  'TWELVE',
  'THIRTEEN',
  'FOURTEEN',
  'FIFTEEN',
  'SIXTEEN',
  'SEVENTEEN',
  'EIGHTEEN',
  'NINETEEN',
  'TWENTY',
  'THIRTY',
  'FORTY',
  'FIFTY',
  'SIXTY',
  'SEVENTY',
  'EIGHTY',
  'NINETY',
  'HUNDRED',
]);

function hasStreetAfter(tokens: readonly string[], from: number): boolean {
  for (let j = from; j < tokens.length; j++) {
    if (isCommonSuffix(suffixOf(tokens[j]!)) && !endsWithRouteWord(tokens.slice(from - 1, j + 1))) return true;
  }
  return false;
}

export function houseNumber(tokens: readonly string[], at: number): HouseNumber {
  // `# 2 TURNER RD`: a sign before the number adds nothing.
  if (tokens[at] === '#') {
    const after = houseNumber(tokens, at + 1);
    if (after.number !== undefined) return after;
  }
  let i = at;
  const first = tokens[i];
  if (first === undefined) return { next: at };
  if (/^[NSEW]\d+$/.test(first) && /^[NSEW]\d+$/.test(tokens[i + 1] ?? '')) return { number: `${first} ${tokens[i + 1]}`, next: i + 2 };
  const glued = GLUED_DIRECTION.exec(first);
  if (glued && /^\d+[NSEW]?$/.test(tokens[i + 1] ?? '')) return { number: glued[1]!, preDirectional: glued[2]!, next: i + 1 };
  // `One S Wacker Dr`: a number word is a house number when a name and a common suffix follow
  // it (`Ten Mile Rd` alone is a street called Ten Mile; `HWY 5` is a route, not a suffix).
  if (NUMBER_WORDS.has(first) && hasStreetAfter(tokens, i + 2)) return { number: first, next: i + 1 };
  if (!isHouseNumber(first)) return { next: at };
  let number = first;
  i++;
  if (/^\d+\/\d+$/.test(tokens[i] ?? '')) number += ` ${tokens[i++]}`;
  // A lone letter belongs to the number unless it is the name itself before a suffix
  // (`100 B St`), a directional (`N`, `S`…), the start of a route (`I 10`, `C R 850`, `F 41`) or
  // the first of several initials (`L B J Fwy`, `P De Leon Blvd`).
  const letter = tokens[i];
  const after = tokens[i + 1];
  const initials = after !== undefined && after.length <= 2 && /^[A-Z]+$/.test(after) && postDirectionalOf(after) === undefined;
  if (
    letter !== undefined &&
    /^[A-DF-MO-RT-VX-Z]$/.test(letter) &&
    after !== undefined &&
    after !== COMMA &&
    !/^\d+$/.test(after) &&
    !initials &&
    suffixOf(after) === undefined &&
    after !== '#' &&
    unitStart(tokens, i + 1, tokens.length) !== i + 1 &&
    routePrefixAt(tokens, i) === undefined &&
    routePrefixAt(tokens, i + 1) === undefined
  ) {
    number += ` ${letter}`;
    i++;
  }
  return { number, next: i };
}
