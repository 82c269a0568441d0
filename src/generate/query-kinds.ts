/** The kinds of identity query variant (query-variants.ts): their weights and what each sends and expects. */
import { ADDRESS_FORM_DESCRIPTIONS, type AddressFormKind } from './address-form-kinds.js';
import { NAME_VARIANT_DESCRIPTIONS, type NameVariantKind } from './name-variant-kinds.js';

/**
 * Kinds with their weights. A kind a person does not allow (no middle name, no unit, nobody else
 * in the household) leaves its weight to the others, so the rarer kinds weigh more here than their
 * share: with these, 20,000 people give roughly 2–10 % of each kind (the eval script prints them).
 */
export const KIND_WEIGHTS = {
  exact: 10,
  nickname: 8,
  'middle-initial': 6,
  'middle-full': 12,
  'middle-missing': 4,
  'street-spelled-out': 7,
  'no-unit': 12,
  zip5: 6,
  'no-zip': 5,
  'zip4-no-street': 4,
  noise: 8,
  'typo-first': 5,
  'typo-last': 5,
  'typo-street': 5,
  'first-initial': 6,
  'household-member': 10,
  'household-unknown': 6,
  moved: 5,
  stranger: 5,
  'wrong-address': 4,
} as const;

/** The kinds query-variants.ts draws by weight. */
export type WeightedKind = keyof typeof KIND_WEIGHTS;
export const VARIANT_KINDS = Object.keys(KIND_WEIGHTS) as WeightedKind[];

/** The name-form kinds (name-form-variants.ts), on a stream of their own. */
export const NAME_FORM_KINDS = [
  'swapped',
  'middle-name',
  'double-surname',
  'surname-part',
  'surname-particle',
  'surname-joined',
  'trap-swap',
  'trap-same-names',
  'trap-middle-first',
] as const;
export type NameFormKind = (typeof NAME_FORM_KINDS)[number];

export type VariantKind = WeightedKind | NameFormKind | AddressFormKind | NameVariantKind;

/** What each kind sends, and what it expects (for reports). */
export const VARIANT_DESCRIPTIONS: Readonly<Record<VariantKind, string>> = {
  ...ADDRESS_FORM_DESCRIPTIONS,
  exact: 'the record as stored: the person',
  nickname: 'a nickname for the first name, or the formal name for a nickname (nickname_pairs.json): the person',
  'middle-initial': 'the initial of a full middle name, sometimes with a period: the person',
  'middle-full': 'a full middle name where the record has an initial: the person',
  'middle-missing': 'no middle name where the record has one: the person',
  'street-spelled-out': 'suffix, directional and unit designator spelled out (`Street`, `North`, `Apartment`): the person',
  'no-unit': 'the street line without its unit: the person',
  zip5: 'ZIP5 instead of ZIP+4: the person',
  'no-zip': 'street, city and state without a ZIP: the person',
  'zip4-no-street': 'name and ZIP+4 only: the person',
  noise: 'two to four of: case, extra spaces, `St.`, a comma before the unit, `O Brien`, ZIP without its dash: the person',
  'typo-first': 'one transposition or keyboard substitution in the first name: the person',
  'typo-last': 'one such typo in the last name: the person',
  'typo-street': 'one such typo in the street name: the person',
  'first-initial':
    'the first name cut to its initial (`J` or `J.`), no middle name: the person, or the household only when another member shares the initial',
  'household-member': "another member's first name with the address and last name: that member",
  'household-unknown': 'a first name nobody in the household has (nor a nickname or near spelling of one): the household only',
  moved: "the person's name at a fresh address: nobody",
  stranger: 'an unrelated first and last name at a real address: nobody',
  'wrong-address': "a real name at another household's address (last names far apart): nobody",
  swapped:
    'first and last name exchanged (`Smith John`), the middle name kept or not, a fifth without the street (name + ZIP+4): the person',
  'middle-name':
    'the middle name as first name (`Robert Smith`, or `Robert J Smith`) where nobody else in the household has that first name: the person, or the household only when another member has the same middle name',
  'double-surname':
    'another surname joined to the surname, either order, hyphenated or spaced (`Smith-Jones` for Smith; a spouse’s double name for the other spouse): the person',
  'surname-part':
    'one part of a compound or maiden-and-married surname (`Garcia` for Garcia-Lopez; `Jones` or `Smith` for Smith-Jones): the person',
  'surname-particle': 'a surname with its particles dropped (`Cruz` for De La Cruz, `Berg` for Van der Berg): the person',
  'surname-joined':
    'a compound surname or one with particles written joined or cut otherwise (`GarciaLopez`, `Garcia Lopez`, `Delacruz`): the person',
  'trap-swap':
    'two people whose names swap into each other (`Scott Thomas`, `Thomas Scott`): one’s name swapped is the other’s as written, so the other; and one asked as written',
  'trap-same-names':
    'a parent and a child with the same first and middle names, `Sr` and `Jr`: the middle name as first name without a suffix, or `J Robert`, the household only; with the suffix, or the full name, that one',
  'trap-middle-first':
    'a parent whose middle name is a child’s first name (John Robert and Robert): `Robert Smith` the child; `J Robert Smith` and `John Smith` the parent',
  ...NAME_VARIANT_DESCRIPTIONS,
};
