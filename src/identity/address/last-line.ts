/**
 * The end of a full address read right to left: country, ZIP (+4), state. What is left before
 * them is the street line and the city, which `city-split.ts` separates.
 */
import { isStateCode, stateOf, unitDesignatorOf } from './pub28.js';
import { COMMA } from './tokens.js';

export interface LastLine {
  /** Tokens before the state (or the ZIP when there is no state): street and city. */
  spanEnd: number;
  state?: string;
  /**
   * The state has no ZIP after it and no comma before it, so it may be a word of the street or
   * city (`… COUNTY ROAD AA NE`, `… 27TH FL`): keep it only if a city is found before it.
   */
  weakState: boolean;
  /** Where the state starts, to undo a weak state. */
  stateStart: number;
  zip5?: string;
  plus4?: string;
}

const COUNTRIES: readonly (readonly string[])[] = [['UNITED', 'STATES', 'OF', 'AMERICA'], ['UNITED', 'STATES'], ['USA'], ['US']];
/** A number after these is a box or unit number, not a ZIP: `PO Box 60000`, `Apt 12345`. */
const NOT_BEFORE_ZIP = new Set(['BOX', 'BX', 'POB', '#']);

function skipCommas(tokens: readonly string[], end: number): number {
  while (end > 0 && tokens[end - 1] === COMMA) end--;
  return end;
}

function endsWith(tokens: readonly string[], end: number, words: readonly string[]): boolean {
  return end - words.length >= 1 && words.every((word, k) => tokens[end - words.length + k] === word);
}

function zipBefore(tokens: readonly string[], end: number): { start: number; zip5: string; plus4?: string } | undefined {
  const last = tokens[end - 1] ?? '';
  let found: { start: number; zip5: string; plus4?: string } | undefined;
  const full = /^(\d{5})-?(\d{4})$/.exec(last);
  if (full) found = { start: end - 1, zip5: full[1]!, plus4: full[2]! };
  else if (/^\d{4}$/.test(last) && /^\d{5}$/.test(tokens[end - 2] ?? '')) found = { start: end - 2, zip5: tokens[end - 2]!, plus4: last };
  else if (/^\d{5}$/.test(last)) found = { start: end - 1, zip5: last };
  // `NJ 7631`: a ZIP whose leading zero a spreadsheet dropped, trusted only right after a state.
  else if (/^\d{3,4}$/.test(last) && isStateCode(tokens[end - 2] ?? '')) found = { start: end - 1, zip5: last.padStart(5, '0') };
  if (found === undefined || found.start < 1) return undefined;
  const before = tokens[found.start - 1]!;
  // `FL 33701` is Florida, `Apt 12345` an apartment.
  if (!isStateCode(before) && (NOT_BEFORE_ZIP.has(before) || unitDesignatorOf(before)?.requiresRange)) return undefined;
  return found;
}

export function takeLastLine(tokens: readonly string[]): LastLine {
  let end = skipCommas(tokens, tokens.length);
  const hasPostal = (at: number): boolean => /^\d{5}(-?\d{4})?$|^\d{4}$/.test(tokens[at - 1] ?? '') || isStateCode(tokens[at - 1] ?? '');
  for (const country of COUNTRIES) {
    // `US` alone only after a ZIP or state: `500 US 19` is a highway.
    if (endsWith(tokens, end, country) && (country[0] !== 'US' || hasPostal(end - 1))) {
      end = skipCommas(tokens, end - country.length);
      break;
    }
  }
  const zip = zipBefore(tokens, end);
  if (zip) end = skipCommas(tokens, zip.start);
  const postal = { ...(zip && { zip5: zip.zip5 }), ...(zip?.plus4 !== undefined && { plus4: zip.plus4 }) };
  for (let length = Math.min(4, end); length >= 1; length--) {
    const state = stateOf(tokens.slice(end - length, end).join(' '));
    if (state === undefined) continue;
    const start = end - length;
    const commaBefore = tokens[start - 1] === COMMA;
    return { spanEnd: skipCommas(tokens, start), state, weakState: zip === undefined && !commaBefore, stateStart: start, ...postal };
  }
  return { spanEnd: end, weakState: false, stateStart: end, ...postal };
}
