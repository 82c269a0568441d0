/**
 * Salutations and titles a file puts before the first name (`Mr John`, `Mrs. Mary`, `Dr. Jennifer
 * K`): not part of the name, and read as one they become a first name (`dr`) that agrees with
 * nobody, or worse, with the initial of somebody (`D`).
 *
 * Only words that are never first names on their own in the files we read; `Dean`, `Judge`,
 * `Major` or `Sir` as a title would cost more real names than they save. `Sr` at the start of
 * the first name is Sister (a Senior comes after the last name: name-suffixes.ts).
 */
export const NAME_TITLES: ReadonlySet<string> = new Set([
  'mr',
  'mrs',
  'mstr',
  'ms',
  'miss',
  'mx',
  'dr',
  'prof',
  'rev',
  'revd',
  'hon',
  'sister',
  'sr',
  'fr',
  'br',
  'pastor',
  'rabbi',
  'capt',
  'sgt',
  'lt',
  'col',
  'cpl',
  'gen',
]);

/** Joins two titles of a couple (`Mr and Mrs`, `Mr & Mrs`: the `&` is already a separator). */
const BETWEEN_TITLES = 'and';

/**
 * Removes leading title tokens in place, keeping at least one token, so that a first name that
 * is only `Miss` or `Gen` (written alone) stays a name. Returns how many were removed.
 */
export function stripTitles(tokens: string[]): number {
  let cut = 0;
  while (cut < tokens.length - 1 && (NAME_TITLES.has(tokens[cut]!) || (cut > 0 && tokens[cut] === BETWEEN_TITLES))) cut++;
  // `Mr and` with nothing after the `and` title: give the `and` back.
  while (cut > 0 && tokens[cut - 1] === BETWEEN_TITLES) cut--;
  tokens.splice(0, cut);
  return cut;
}
