// Migration 0005's frozen copy of identity/name/name-suffixes.ts as it stood at the freeze (frozen/0005-blocking.ts): never edit.
// Name suffixes that normalizePersonName strips from a name and reports.

/**
 * Generational and professional suffixes. Only trailing tokens are stripped, and never a part's
 * only token, so a surname such as `V` or a first name written `J.R.` survives.
 */
export const NAME_SUFFIXES: ReadonlySet<string> = new Set(['jr', 'sr', 'ii', 'iii', 'iv', 'v', '2nd', '3rd', 'md', 'phd', 'esq']);

// Generational suffixes tell a father from a son; professional ones (md, phd, esq) do not.
// `2nd`/`3rd` are the same generations as `ii`/`iii`.
const GENERATIONS: ReadonlyMap<string, string> = new Map([
  ['jr', 'jr'],
  ['sr', 'sr'],
  ['ii', 'ii'],
  ['2nd', 'ii'],
  ['iii', 'iii'],
  ['3rd', 'iii'],
  ['iv', 'iv'],
  ['v', 'v'],
]);

/**
 * The generational part of a reported suffix, for telling relatives apart: `jr md` → `jr`,
 * `2nd` → `ii`, `phd` → `''`. Two names whose generations are both non-empty and differ are
 * different people; a professional suffix says nothing either way.
 */
export function generationOf(suffix: string | undefined): string {
  if (typeof suffix !== 'string') return '';
  return suffix
    .split(' ')
    .map((token) => GENERATIONS.get(token) ?? '')
    .filter((generation) => generation !== '')
    .join(' ');
}
