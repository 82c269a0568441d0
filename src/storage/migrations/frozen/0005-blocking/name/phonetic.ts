// Migration 0005's frozen copy of identity/name/phonetic.ts as it stood at the freeze (frozen/0005-blocking.ts): never edit.
/**
 * The last-name phonetic code used as a blocking key (with ZIP5): the primary Double Metaphone
 * code (talisman), at most four characters, so `Smith`/`Smyth` and `Catherine`/`Kathryn` share a
 * block.
 */
import doubleMetaphone from 'talisman/phonetics/double-metaphone.js';
import { normalizeNamePart } from './normalize-person-name.js';

// Latin letters that compatibility decomposition leaves alone; without them `Łukasz` would be
// coded as `ukasz`.
const LATIN_FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ħ: 'h',
  ŀ: 'l',
  ı: 'i',
};
const FOLDABLE = new RegExp(`[${Object.keys(LATIN_FOLDS).join('')}]`, 'gu');

/**
 * `''` when the name has no Latin letters (empty, or written only in another script): such names
 * get no phonetic block rather than all sharing one.
 */
export function lastNamePhonetic(last: string): string {
  // Double Metaphone reads A–Z only; digits and other scripts would be skipped or misread.
  const latin = normalizeNamePart(last)
    .replace(FOLDABLE, (letter) => LATIN_FOLDS[letter] ?? '')
    .replace(/[^a-z]/g, '');
  if (latin === '') return '';
  return doubleMetaphone(latin)[0];
}
