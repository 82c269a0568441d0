// Migration 0005's frozen copy of identity/address/tokens.ts as it stood at the freeze (frozen/0005-blocking.ts): never edit.
/**
 * Turns an address string into upper-case word tokens, the form every lookup in `pub28.ts`
 * expects. Commas and semicolons become a `,` token (a field boundary that full-address parsing
 * uses); `#` is always a token of its own; `&` is the word `AND`.
 *
 * - accents are dropped (`Peñasco` → `PENASCO`), apostrophes deleted (`O'Neil` → `ONEIL`);
 * - a period after a single letter is deleted so initials stay one word (`P.O.` → `PO`,
 *   `N.W.` → `NW`, `U.S.` → `US`); a period between digits is kept (Publication 28 Appendix D2
 *   grid addresses such as `39.2 RD`); any other period separates words (`St.Louis`);
 * - `/` survives only inside a fraction (`1/2`); a hyphen survives inside a token with a digit
 *   (`123-B`, `112-10`, `C-5`) except after a route word (`I-95`), elsewhere it separates words
 *   (`Wilkes-Barre`);
 * - a designator glued to its number is split (`APT4` → `APT 4`, `RR2` → `RR 2`, `#12` → `# 12`);
 * - ordinal words become digits (`Twenty-First` → `21ST`, ordinals.ts), and `SO` (South) `S`.
 *
 * Work is capped: input past MAX_INPUT_LENGTH characters and tokens past MAX_TOKENS are ignored,
 * so a hostile multi-megabyte string costs no more than a long address.
 */
import { ordinalWords } from './ordinals.js';
import { directionalOf, routePrefixAt, suffixOf, unitDesignatorOf } from './pub28.js';

export const MAX_INPUT_LENGTH = 512;
export const MAX_TOKENS = 64;
export const COMMA = ',';

const MARKS = /\p{M}/gu;
const GLUED = /^(APT|STE|UNIT|RM|BLDG|LT|LOT|SPC|RR|HC|HCR|BOX|PMB|TRLR|SUITE)(\d+[A-Z]?)$/;

function splitToken(token: string, out: string[]): void {
  let word = token.replace(/^[-/.]+|[-/.]+$/g, '');
  if (word === '') return;
  // `C-5`, `B6-347B` are unit numbers and stay whole; `I-95`, `SR-60` are a route and its number.
  if (!/^\d/.test(word) && word.includes('-') && (!/\d/.test(word) || routePrefixAt([word.split('-')[0]!], 0) !== undefined)) {
    for (const part of word.split('-')) splitToken(part, out);
    return;
  }
  if (word.includes('/') && !/^\d+\/\d+$/.test(word)) {
    for (const part of word.split('/')) splitToken(part, out);
    return;
  }
  if (word.includes('.') && !/^\d+(\.\d+)*$/.test(word)) {
    for (const part of word.split('.')) splitToken(part, out);
    return;
  }
  const glued = GLUED.exec(word);
  if (glued) {
    out.push(glued[1]!, glued[2]!);
    return;
  }
  word = word.replace(/[^A-Z0-9\-/.]/g, '');
  if (word !== '') out.push(word);
}

export function tokenize(text: string): string[] {
  if (typeof text !== 'string') return [];
  const clean = text
    .slice(0, MAX_INPUT_LENGTH)
    .normalize('NFKD')
    .replace(MARKS, '')
    .toUpperCase()
    .replace(/['’`]/g, '')
    .replace(/\b([A-Z])\.(?=[A-Z])/g, '$1')
    .replace(/[,;]/g, ' , ')
    .replace(/#/g, ' # ')
    .replace(/&/g, ' AND ')
    .replace(/[^A-Z0-9#,\-/.]+/g, ' ');
  const tokens: string[] = [];
  for (const raw of clean.split(' ')) {
    if (tokens.length >= MAX_TOKENS) break;
    if (raw === '') continue;
    if (raw === ',' || raw === '#') {
      if (raw === ',' && (tokens.length === 0 || tokens[tokens.length - 1] === COMMA)) continue;
      tokens.push(raw);
      continue;
    }
    splitToken(raw, tokens);
  }
  while (tokens[tokens.length - 1] === COMMA) tokens.pop();
  const words = ordinalWords(tokens);
  // `#` means "number" only before one (`# 12`, `#12`); a stray `#` (`# APT 3`, `Main #`) is
  // noise. `SO` is how lists write South (`612 SO LAKE ST`) and becomes `S`.
  const south = words.map((token) => (token === 'SO' ? 'S' : token));
  return south.filter((token, k) => token !== '#' || isUnitId(south[k + 1])).slice(0, MAX_TOKENS);
}

/** A house number: `123`, `123A`, `123-B`, `112-10`, `39.2`, or a Wisconsin grid `N95W18855`. */
export function isHouseNumber(token: string | undefined): boolean {
  return (
    token !== undefined && (/^\d+[A-Z]?$/.test(token) || /^\d+[-.][A-Z0-9][A-Z0-9-]*$/.test(token) || /^[NSEW]\d+[NSEW]\d+$/.test(token))
  );
}

/**
 * What may follow a secondary unit designator or `BOX`: `4`, `4B`, `D304`, `1-B`, `A`, `AB`.
 * Not a directional, suffix or designator (`APT E`, `STE LK`, `APT NO` read as street words),
 * so that a canonical line never turns street words into a unit.
 */
export function isUnitId(token: string | undefined): boolean {
  if (token === undefined || !/^[A-Z0-9][A-Z0-9-]*$/.test(token)) return false;
  if (/\d/.test(token)) return true;
  return token.length <= 2 && directionalOf(token) === undefined && suffixOf(token) === undefined && unitDesignatorOf(token) === undefined;
}

export function hasDigit(token: string | undefined): boolean {
  return token !== undefined && /\d/.test(token);
}
