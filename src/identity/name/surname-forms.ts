/**
 * The parts of a surname, for the forms real files write it in: a compound or double surname in
 * full or in part (`Garcia-Lopez`, `Garcia Lopez`, `GarciaLopez`, `Garcia`; a maiden and a married
 * name, `Smith-Jones` / `Jones`), and a surname with its particles written, joined or dropped
 * (`De La Cruz`, `Delacruz`, `Cruz`).
 *
 * The surname is cut at white space, commas and hyphens (never at apostrophes or periods:
 * `O'Brien` is one word), each word normalised as `normalizeNamePart` does, and the generational
 * suffixes `normalizePersonName` strips are left out, so the groups joined are always that
 * function's `last`. A particle (`de`, `la`, `van`, `von`…) is not a surname of its own: it joins
 * the word after it into one group whose core is that word (`de la cruz` → `delacruz`, core
 * `cruz`). A particle written joined to its word (`Delacruz`) cannot be told from a name that
 * begins with the same letters (`Delgado`, `Deleon` / `Leon`), so it stays part of the word.
 */
import { nameTokens, normalizePersonName } from './normalize-person-name.js';

export interface SurnameGroup {
  /** The group as written, particles included: `delacruz`. */
  full: string;
  /** The group without its particles: `cruz`. */
  core: string;
}

/** Surname particles that are written as words of their own, normalised. */
export const SURNAME_PARTICLES: ReadonlySet<string> = new Set([
  'al',
  'da',
  'das',
  'de',
  'del',
  'dela',
  'della',
  'den',
  'der',
  'di',
  'do',
  'dos',
  'du',
  'el',
  'la',
  'las',
  'le',
  'les',
  'los',
  'saint',
  'st',
  'ste',
  'ten',
  'ter',
  'van',
  'vande',
  'vanden',
  'vander',
  'von',
  'y',
]);

// Hyphens and dashes: inside a name part they join (`Mary-Ann`), but between surnames they
// separate (`Garcia-Lopez`).
const HYPHENS = /[\u002D\u2010\u2011\u2012\u2013\u2014\u2212]/gu;

/**
 * The groups of a surname, in written order; `[]` for a surname without letters or digits.
 * Total, and `groups.map((g) => g.full).join('')` is `normalizePersonName({ last }).last`.
 */
export function surnameGroups(last: unknown): SurnameGroup[] {
  const joined = normalizePersonName({ last: typeof last === 'string' ? last : '' }).last;
  if (joined === '') return [];
  // Cutting at hyphens as well only ever splits a word in two, so the words are the joined
  // surname in pieces; the suffixes it left out are the words past its end.
  const words: string[] = [];
  let length = 0;
  for (const word of nameTokens((last as string).replace(HYPHENS, ' '))) {
    if (length >= joined.length) break;
    words.push(word);
    length += word.length;
  }
  if (words.join('') !== joined) return [{ full: joined, core: joined }];
  const groups: SurnameGroup[] = [];
  let particles = '';
  for (const word of words) {
    if (SURNAME_PARTICLES.has(word)) particles += word;
    else {
      groups.push({ full: particles + word, core: word });
      particles = '';
    }
  }
  // Particles with no word after them (`Smith De`, or a surname that is only particles) stay on
  // the group before them, or make a group of their own.
  if (particles !== '') {
    const previous = groups.pop();
    groups.push(previous === undefined ? { full: particles, core: particles } : { full: previous.full + particles, core: previous.core });
  }
  return groups;
}

/**
 * How two surnames agree beyond being written the same (which the caller tells first):
 * - `particle`: the same words, particles dropped or written differently (`De La Cruz` / `Cruz`,
 *   `Van der Berg` / `Berg`);
 * - `part`: one is some of the other's words, or the same words in another order (`Garcia` /
 *   `Garcia-Lopez`, `Lopez` / `Garcia Lopez`, `GarciaLopez` / `Garcia Lopez Smith`,
 *   `Jones Smith` / `Smith-Jones`; `Le` / `Le Gallagher`, where the particle is a surname of its
 *   own); a word shorter than two letters is never a part on its own;
 * - `none` otherwise, and for two double surnames that share only one word (`Garcia-Lopez` /
 *   `Garcia-Martinez`: a parent and a child in Spanish naming).
 * Symmetric.
 */
export type SurnameFormAgreement = 'particle' | 'part' | 'none';

export function surnameFormsAgree(a: readonly SurnameGroup[], b: readonly SurnameGroup[]): SurnameFormAgreement {
  if (a.length === 0 || b.length === 0) return 'none';
  const coresA = a.map((g) => g.core);
  const coresB = b.map((g) => g.core);
  if (coresA.length === coresB.length && coresA.every((core, i) => core === coresB[i])) return 'particle';
  if (particleWordOf(a, b) || particleWordOf(b, a)) return 'part';
  if (a.length === b.length) {
    // The same words in another order (`Jones Smith` / `Smith-Jones`).
    if (a.length === 1) return 'none';
    const sorted = (cores: string[]) => [...cores].sort().join(' ');
    return sorted(coresA) === sorted(coresB) ? 'part' : 'none';
  }
  const [shorter, longer] = a.length < b.length ? [a, b] : [b, a];
  if (shorter.length === 1) return singleIsPart(shorter[0]!, longer) ? 'part' : 'none';
  // The shorter's words all in the longer (`Garcia Lopez` / `Garcia Lopez Smith`).
  const words = new Set(longer.map((g) => g.core));
  return shorter.every((g) => words.has(g.core)) ? 'part' : 'none';
}

/**
 * A surname that is itself a particle word (`Le`, `Van`, `Du` are surnames too) against a surname
 * that has it as a particle before or after a word (`Le Gallagher`, `Gallagher Le`): a part of it.
 */
function particleWordOf(single: readonly SurnameGroup[], other: readonly SurnameGroup[]): boolean {
  if (single.length !== 1 || !SURNAME_PARTICLES.has(single[0]!.full)) return false;
  const word = single[0]!.full;
  return other.some((g) => g.full !== g.core && (g.full === word + g.core || g.full === g.core + word));
}

/** One group against the runs of consecutive groups of a longer surname (never the whole of it). */
function singleIsPart(single: SurnameGroup, longer: readonly SurnameGroup[]): boolean {
  if (single.core.length < 2) return false;
  for (let start = 0; start < longer.length; start++) {
    let full = '';
    let core = '';
    for (let end = start; end < longer.length; end++) {
      if (start === 0 && end === longer.length - 1) break;
      full += longer[end]!.full;
      core += longer[end]!.core;
      if (single.full === full || single.core === core || single.full === core || single.core === full) return true;
    }
  }
  return false;
}
