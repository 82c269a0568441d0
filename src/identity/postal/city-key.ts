/**
 * The form in which a city name is compared with the ZIP reference. People and USPS spell the same
 * place differently: `St. Louis` / `Saint Louis`, `O'Fallon` / `O Fallon`, `Coeur d'Alene` /
 * `Coeur D Alene`, `McKinney` / `Mc Kinney`, `Winston-Salem` / `Winston Salem`. So the name is
 * case-folded and stripped of accents, cut into words at any punctuation or space, the usual
 * abbreviations are spelled out word by word, and the words are joined without a separator.
 */

const MARKS = /\p{M}/gu;

// Abbreviations USPS and people use inside city names. `Pt` is left out: it is Point or Port.
const CITY_WORDS: ReadonlyMap<string, string> = new Map([
  ['st', 'saint'],
  ['ste', 'sainte'],
  ['ft', 'fort'],
  ['mt', 'mount'],
  ['spgs', 'springs'],
  ['hts', 'heights'],
  ['jct', 'junction'],
]);

/** `''` when the name has no letters or digits. */
export function cityKey(city: string): string {
  return city
    .normalize('NFKD')
    .replace(MARKS, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .map((word) => CITY_WORDS.get(word) ?? word)
    .join('');
}
