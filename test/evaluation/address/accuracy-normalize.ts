/**
 * How address-accuracy.ts compares one component: both the expected text (a corpus label) and
 * ours go through the same function, so only a real difference counts as an error — not case,
 * punctuation, `Street` for `ST`, `North` for `N`, `Ave H` for `AVENUE H` or `St Louis` for
 * `SAINT LOUIS`.
 */
import { normalizeCityTokens } from '../../../src/identity/address/city-name.js';
import { formatStreetLine } from '../../../src/identity/address/format-street.js';
import type { ParsedUsAddress } from '../../../src/identity/address/parse-us-address.js';
import {
  directionalOf,
  postDirectionalOf,
  preDirectionalOf,
  stateOf,
  suffixOf,
  unitDesignatorOf,
} from '../../../src/identity/address/pub28.js';
import { canonicalStreetName, normalizeStreetName } from '../../../src/identity/address/street-name.js';
import { COMMA, tokenize } from '../../../src/identity/address/tokens.js';

export const COMPONENTS = [
  'number',
  'preDirectional',
  'name',
  'suffix',
  'postDirectional',
  'unitType',
  'unitId',
  'street',
  'city',
  'state',
  'zip5',
  'plus4',
] as const;
export type ComponentName = (typeof COMPONENTS)[number];
/** Raw text per component; absent or `''` means "none". */
export type Components = Partial<Record<ComponentName, string>>;

function words(text: string): string[] {
  return tokenize(text).filter((token) => token !== COMMA);
}

/** The street without number and unit as a sorted bag of words, each abbreviated. */
function streetWords(text: string): string {
  return normalizeStreetName(words(text))
    .split(' ')
    .filter((word) => word !== '')
    .map((word) => directionalOf(word) ?? suffixOf(word) ?? word)
    .sort()
    .join(' ');
}

const NORMALIZE: Record<ComponentName, (text: string) => string> = {
  number: (text) =>
    words(text)
      .filter((w) => w !== '#')
      .join(' '),
  preDirectional: (text) => preDirectionalOf(words(text).join('')) ?? words(text).join(' '),
  name: (text) => canonicalStreetName(words(text)),
  suffix: (text) => suffixOf(words(text).join(' ')) ?? words(text).join(' '),
  postDirectional: (text) => postDirectionalOf(words(text).join('')) ?? words(text).join(' '),
  // `#` alone is a designator, not the stray sign the tokenizer drops.
  unitType: (text) =>
    words(text.trim() === '#' ? 'NO' : text)
      .map((w) => unitDesignatorOf(w)?.abbreviation ?? w)
      .join(' '),
  unitId: (text) =>
    words(text)
      .filter((w) => w !== '#')
      .map((w) => unitDesignatorOf(w)?.abbreviation ?? normalizeStreetName([w]))
      .filter((w) => w !== '#')
      .join(' '),
  street: streetWords,
  city: (text) => normalizeCityTokens(words(text)),
  state: (text) => stateOf(words(text).join(' ')) ?? words(text).join(' '),
  // A ZIP written without its leading zero (`NJ 7631`) is the same ZIP.
  zip5: (text) => {
    const digits = text.replace(/\D/g, '');
    return digits.length < 5 ? digits.padStart(5, '0') : digits.slice(0, 5);
  },
  plus4: (text) => text.replace(/\D/g, ''),
};

export function normalizeComponent(name: ComponentName, text: string | undefined): string {
  return text === undefined || text.trim() === '' ? '' : NORMALIZE[name](text);
}

/** Our parse as component texts. */
export function componentsOf(p: ParsedUsAddress): Components {
  const street = formatStreetLine({
    name: p.name,
    ...(p.preDirectional && { preDirectional: p.preDirectional }),
    ...(p.suffix && { suffix: p.suffix }),
    ...(p.postDirectional && { postDirectional: p.postDirectional }),
  });
  return {
    number: p.number,
    preDirectional: p.preDirectional,
    name: p.name,
    suffix: p.suffix,
    postDirectional: p.postDirectional,
    unitType: p.unitType,
    unitId: p.unitId,
    street,
    city: p.city,
    state: p.state,
    zip5: p.zip5,
    plus4: p.plus4,
  };
}
