/**
 * Person-name normalisation for fuzzy identity matching: the same person typed by different hands
 * (`José O'Brien-Smith, Jr.` / `JOSE OBRIENSMITH`) must come out equal, part by part.
 *
 * A name part is cut into tokens at white space, commas and other punctuation, except that
 * apostrophes, hyphens and periods join (`O'Brien` → `obrien`, `Mary-Ann` → `maryann`,
 * `J.R.` → `jr`), because they sit inside one name. Each token is compatibility-decomposed,
 * stripped of accents and case-folded; the tokens of a part are then joined without a separator,
 * as `normalizeName` in people/person-key.ts does, so `de la Cruz` and `DeLaCruz` agree.
 */
import { NAME_SUFFIXES } from './name-suffixes.js';
import { stripTitles } from './titles.js';

export interface PersonName {
  first: string;
  middle: string;
  last: string;
  /** Suffixes stripped from the last (or first) name, space-separated in written order: `jr`, `iii md`. */
  suffix?: string;
}

export interface PersonNameParts {
  first?: string;
  middle?: string;
  last?: string;
}

const MARKS = /\p{M}/gu;
// Inside-a-name punctuation: apostrophes (ASCII, typographic, modifier letter, backtick), hyphens
// and dashes, periods.
const JOINERS = /['’‘ʼ`\u002D\u2010\u2011\u2012\u2013\u2014\u2212.]/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/**
 * Lower-, upper- then lower-casing is a full case fold where plain lower-casing is not: `ß`, `ẞ`
 * and `SS` agree, as do `ı` and `I`, so the result does not depend on the case the name arrived
 * in. Lower-casing picks the Greek final sigma by context, and joining tokens changes the context,
 * so it is mapped to `σ` (without that, normalising twice could differ from normalising once).
 */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(MARKS, '')
    .toLowerCase()
    .toUpperCase()
    .toLowerCase()
    .normalize('NFKD')
    .replace(MARKS, '')
    .replace(/ς/gu, 'σ');
}

/** The normalised tokens of one name part; `[]` for anything that is not a non-empty string. */
export function nameTokens(part: unknown): string[] {
  if (typeof part !== 'string' || part === '') return [];
  // Joiners go after folding, as compatibility decomposition turns some look-alikes (`＇`, `﹣`) into them.
  return fold(part)
    .replace(JOINERS, '')
    .split(SEPARATORS)
    .filter((token) => token !== '');
}

/** One name part as a single normalised string (`Mary-Ann` → `maryann`, `de la Cruz` → `delacruz`). */
export function normalizeNamePart(part: unknown): string {
  return nameTokens(part).join('');
}

/** Removes trailing suffix tokens in place (keeping at least one token) and returns them in order. */
function stripSuffixes(tokens: string[]): string[] {
  const stripped: string[] = [];
  while (tokens.length > 1 && NAME_SUFFIXES.has(tokens[tokens.length - 1]!)) stripped.unshift(tokens.pop()!);
  return stripped;
}

/**
 * Total: any input (missing parts, non-strings, arbitrary Unicode) gives a `PersonName`, and
 * normalising an already-normalised name gives it back unchanged.
 */
export function normalizePersonName(parts: PersonNameParts): PersonName {
  const source: PersonNameParts = typeof parts === 'object' && parts !== null ? parts : {};
  const firstTokens = nameTokens(source.first);
  const middleTokens = nameTokens(source.middle);
  const lastTokens = nameTokens(source.last);

  // `Dr. Jennifer K`: the title is no part of the name (titles.ts).
  stripTitles(firstTokens);
  const suffixes = [...stripSuffixes(firstTokens), ...stripSuffixes(lastTokens)];

  // `John Q` with no middle name: the second token is the middle name (or initial). With a middle
  // name given, a multi-token first name is a double first name (`Mary Ann`) and stays whole.
  let first: string;
  let middle: string;
  if (middleTokens.length === 0 && firstTokens.length > 1) {
    first = firstTokens[0]!;
    middle = firstTokens.slice(1).join('');
  } else {
    first = firstTokens.join('');
    middle = middleTokens.join('');
  }

  const name: PersonName = { first, middle, last: lastTokens.join('') };
  if (suffixes.length > 0) name.suffix = suffixes.join(' ');
  return name;
}
