/**
 * Spelling variants of one first name that change its letters, even the first (`Curtis`/`Kurtis`,
 * `Caleb`/`Kaleb`, `Cheryl`/`Sheryl`, `Ashley`/`Ashleigh`, `Dylan`/`Dillon`, `Kathryn`/`Cathryn`,
 * `Brian`/`Bryan`, `Stephen`/`Steven`): the same sounds spelt otherwise.
 *
 * Sounding alike is Double Metaphone's judgement (talisman): the two names share its primary code
 * (and, where talisman cut it at four characters, the code of their closing consonants). That code
 * is too coarse on its own to call two names one: it drops vowels (`John`/`Joan`/`Jean`/`Juan` are
 * all `JN`) and voicing (`Tina`/`Dina` are both `TN`), which is how different names differ. So two
 * more conditions, each a part of the sound the code throws away:
 *
 * - the same vowels in the same places (vowelPattern below): `y` inside a name is `i`, a silent
 *   `h` or `gh` goes, and a closing `ee` sound may be spelt `y`, `ey`, `ay`, `ee` or `eigh` (but
 *   not `i` or `ie`: `Terri`/`Terry`); only the vowel of an unstressed closing `-an`/`-en`/`-in`/
 *   `-on` of a longer name may differ (`Dillon`/`Dylan`, `Allen`/`Allan`, `Kristen`/`Kristin`);
 * - the same voiced and voiceless stops in the same order (`d`/`t`, `b`/`p`, `g`/`k`): `Tina` is
 *   not `Dina`, `Gail` is not `Kail`.
 *
 * Names that differ in a vowel (`John`/`Joan`, `Carl`/`Carol`, `Eric`/`Erica`, `Louis`/`Louise`,
 * `Dana`/`Donna`) stay different names. `Kathryn`/`Cathleen` are two names (Katherine and
 * Kathleen), not two spellings: their codes differ and they are not matched.
 */
import doubleMetaphone from 'talisman/phonetics/double-metaphone.js';

interface Sound {
  /** Double Metaphone's primary code (its alternative joins `Jane` to `Anne`, `Jade` to `Wade`). */
  code: string;
  /** Starts with a vowel: `Aaron` is not `Warren`, though both are `ARN`. */
  vowelFirst: boolean;
  /** The code of the closing consonants, for a code cut at four characters (`Andrew`/`Andres`). */
  tail: string;
  vowels: readonly string[];
  stops: string;
}

/** talisman's Double Metaphone stops at four characters. */
const CODE_MAX = 4;
const cache = new Map<string, Sound | null>();
const CACHE_MAX = 20_000;

/**
 * Whether two normalised first names (normalizeNamePart) are spellings of one name. False for
 * equal names, names under three letters, and anything but the letters a–z.
 */
export function spellingVariants(a: string, b: string): boolean {
  if (a === b) return false;
  const x = sound(a);
  const y = sound(b);
  if (x === null || y === null) return false;
  if (x.stops !== y.stops) return false;
  if (x.code === '' || x.code !== y.code || x.vowelFirst !== y.vowelFirst) return false;
  if (x.code.length >= CODE_MAX && x.tail !== y.tail) return false;
  return sameVowels(x.vowels, y.vowels);
}

function sound(name: string): Sound | null {
  let s = cache.get(name);
  if (s !== undefined) return s;
  s = /^[a-z]{3,}$/.test(name)
    ? {
        code: doubleMetaphone(name)[0],
        vowelFirst: /^[aeiou]/.test(name),
        tail: doubleMetaphone(`a${/[^aeiouy]*$/.exec(name)![0]}`)[0],
        vowels: vowelPattern(name),
        stops: stopPattern(name),
      }
    : null;
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(name, s);
  return s;
}

const VOWEL_RUN = /[aeiou]+/g;
const UNSTRESSED = new Set(['a', 'e', 'i', 'o']);
/** A closing `ee` sound spelt `y`, `ey`, `ay`, `ee` or `eigh` (Ashley, Ashlee, Ashleigh, Lindsay). */
const CLOSING_Y = /(?:eigh|ey|ay|ee|y)$/;
/**
 * Spelt `i` or `ie`, it is another class: `Terri`/`Terry`, `Toni`/`Tony`, `Bobbie`/`Bobby` are as
 * often two people (a woman's and a man's spelling) as one.
 */
const CLOSING_I = /(?:ie|i)$/;

/**
 * The vowel clusters in order: `y` inside a name is `i`, a silent `h` after a closing vowel and a
 * silent `gh` go, a doubled vowel other than `ee` counts once; the closing one tagged `$`, or `n$`
 * for the vowel of an unstressed closing `-an`/`-en`/`-in`/`-on` of a name of two clusters or
 * more.
 */
export function vowelPattern(name: string): string[] {
  let closing: string | undefined;
  let base = name;
  const y = CLOSING_Y.exec(name.slice(1));
  const i = y === null ? CLOSING_I.exec(name.slice(1)) : null;
  if (y !== null || i !== null) {
    closing = y !== null ? 'y$' : 'i$';
    base = name.slice(0, name.length - (y ?? i)![0].length);
  } else {
    base = base.replace(/(?<=[aeiou])h$/, '');
  }
  const spelt = base
    .replace(/(?<=[aeiou])gh(?![aeiou])/g, '')
    .replace(/(?<=.)y/g, 'i')
    .replace(/([aeiou])\1/g, (pair, v: string) => (v === 'e' ? pair : v));
  const clusters: string[] = [];
  let last: RegExpExecArray | null = null;
  for (let m = VOWEL_RUN.exec(spelt); m !== null; m = VOWEL_RUN.exec(spelt)) {
    clusters.push(m[0]);
    last = m;
  }
  VOWEL_RUN.lastIndex = 0;
  if (closing !== undefined) return [...clusters, closing];
  if (last === null) return clusters;
  const tail = spelt.slice(last.index + last[0].length);
  const end = clusters.length - 1;
  if (tail === '') clusters[end] = `${last[0]}$`;
  else if (tail === 'n' && clusters.length > 1 && UNSTRESSED.has(last[0])) clusters[end] = 'n$';
  return clusters;
}

function sameVowels(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * The voiced and voiceless stops in order, and `f`, one letter each: `ph` and `v` are `f` (in
 * names they are one sound as often as not: `Stephen`/`Steven`); `gh` before a vowel is `g`, `th`
 * and a silent `gh` are other sounds and `g` before `e`, `i`, `y` is soft, so they are left out; a doubled
 * letter counts once.
 */
export function stopPattern(name: string): string {
  return name
    .replace(/([^aeiou])\1+/g, '$1')
    .replace(/ph/g, 'f')
    .replace(/v/g, 'f')
    .replace(/gh(?=[aeiou])/g, 'g')
    .replace(/[tg]h/g, '')
    .replace(/g(?=[eiy])/g, '')
    .replace(/[^bdgptvf]/g, '')
    .replace(/(.)\1+/g, '$1');
}
