/**
 * City names as we store them: upper-case words, the abbreviations USPS spells out in city names
 * written in full (`ST LOUIS` → `SAINT LOUIS`, `FT WORTH` → `FORT WORTH`, `MT VERNON` →
 * `MOUNT VERNON`), and a leading directional spelled out (`N MIAMI` → `NORTH MIAMI`), the way
 * the USPS City State file writes them.
 */
import { DIRECTIONALS } from './data/directionals.js';
import { COMMA } from './tokens.js';

const CITY_WORDS: Readonly<Record<string, string>> = { ST: 'SAINT', STE: 'SAINTE', FT: 'FORT', MT: 'MOUNT' };
const DIRECTION_WORDS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(DIRECTIONALS).map(([word, abbreviation]) => [abbreviation, word]),
);

export function normalizeCityTokens(tokens: readonly string[]): string {
  const words = tokens.filter((token) => token !== COMMA && token !== '#').map((token) => CITY_WORDS[token] ?? token);
  if (words.length >= 2 && DIRECTION_WORDS[words[0]!] !== undefined) words[0] = DIRECTION_WORDS[words[0]!]!;
  return words.join(' ');
}
