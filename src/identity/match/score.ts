/**
 * Scores one candidate against a query: each field's agreement level adds its weight (the
 * Fellegi–Sunter idea: a field whose agreement is rare by chance weighs more), and two gates
 * decide the kind of match:
 *
 * - the address must be the same place (house number, street, unit where both give one, and the
 *   ZIP or the city and state; or, for a query without a street, the ZIP+4);
 * - the last name must agree (exactly, one slip of the keyboard apart, or in another form of a
 *   compound surname or one with particles: see name-forms.ts);
 * - then Individual when the first name agrees too (exactly, by nickname, within a typo, or as
 *   an initial) and nothing that tells two people apart disagrees (middle name, Jr/Sr);
 *   Household otherwise.
 *
 * Two name forms stand in for the usual agreement: a person who goes by the middle name
 * (`Robert Smith` for John Robert Smith) and the first and last names swapped (`Smith John`).
 * A match through any form other than the name as written carries `nameForm`, and the ranking
 * never lets it outrank a match through the name as written (rank.ts).
 *
 * Disagreement never passes a gate by weight alone: precision comes from the gates, the weights
 * only order what passed.
 */
import { sameNumberedRoad, sameNumbersInName, unitIdKey, type ParsedStreet } from '../address/index.js';
import { firstNamesAgree, generationOf, isKnownFirstName, jaroWinkler, oneSlipApart, spellingVariants } from '../name/index.js';
import type { IdentityFeatures } from './features.js';
import { goesByMiddleName, lastAgreement, namesSwapped, type NameForm } from './name-forms.js';
import type { MatchType } from './types.js';

export type { NameForm } from './name-forms.js';

export interface Scored {
  type: MatchType;
  confidence: number;
  /** Set when the names agreed only in another form than as written (name-forms.ts). */
  nameForm?: NameForm;
  /**
   * Set on an Individual whose first name agreed only loosely (a spelling variant or one slip)
   * and that nothing else in the record proves: it gives way to a housemate who has the query's
   * first name (housemates.ts).
   */
  looseFirst?: true;
}

/** Jaro–Winkler at or above which two street names are the same name mistyped (or one slip apart). */
const STREET_TYPO = 0.88;
const CITY_TYPO = 0.9;

const WEIGHT = {
  address: 0.4,
  unit: 0.05,
  lastExact: 0.2,
  lastParticle: 0.17,
  lastPart: 0.15,
  lastTypo: 0.12,
  firstExact: 0.25,
  firstNickname: 0.2,
  firstMiddle: 0.17,
  firstTypo: 0.17,
  firstVariant: 0.17,
  firstInitial: 0.1,
  /** Both names, each in the other's place. */
  swapped: 0.3,
  middle: 0.05,
  email: 0.05,
} as const;

const LAST_WEIGHT = { exact: WEIGHT.lastExact, particle: WEIGHT.lastParticle, part: WEIGHT.lastPart, typo: WEIGHT.lastTypo } as const;

export function scoreCandidate(q: IdentityFeatures, c: IdentityFeatures): Scored | undefined {
  const place = samePlace(q, c);
  if (place === 'different') return undefined;
  let confidence = WEIGHT.address + (place === 'same-unit' ? WEIGHT.unit : 0);
  if (q.emails.some((e) => c.emails.includes(e))) confidence += WEIGHT.email;
  const sameGeneration = !differ(generationOf(q.suffix) || undefined, generationOf(c.suffix) || undefined);
  const last = lastAgreement(q, c);
  if (last === 'none') {
    // `Smith John`: a column mix-up in the source file, both names in the other's place.
    if (!sameGeneration || conflicts(q.middle, c.middle) || !namesSwapped(q, c)) return undefined;
    confidence += WEIGHT.swapped + (q.middle !== '' && c.middle !== '' ? WEIGHT.middle : 0);
    return { type: 'Individual', confidence: round(Math.min(1, confidence)), nameForm: 'swapped' };
  }
  confidence += LAST_WEIGHT[last];
  // `Mary-Jane`, `MaryJane` and `Mary Jane` are one double first name: the middle is part of it.
  const double = doubleFirstName(q, c);
  const first = double ? 'exact' : firstAgreement(q.first, c.first);
  const proven = q.emails.some((e) => c.emails.includes(e)) || (q.middle.length > 1 && q.middle === c.middle);
  if (first === 'none' || (first === 'typo' && !proven && twoNames(q.first, c.first))) {
    // `Robert Smith` for John Robert Smith, with the surname as written: the person may go by it.
    if (last === 'exact' && sameGeneration && goesByMiddleName(q, c)) {
      return { type: 'Individual', confidence: round(Math.min(1, confidence + WEIGHT.firstMiddle)), nameForm: 'middle-as-first' };
    }
    return { type: 'Household', confidence: round(confidence) };
  }
  // An initial or a typo in the first name is too little beside a last name that is not as
  // written (a typo, or another form of it).
  const weakFirst = first === 'initial' || first === 'typo' || first === 'variant';
  const individual = sameGeneration && (double || !conflicts(q.middle, c.middle)) && !(weakFirst && last !== 'exact');
  if (!individual) return { type: 'Household', confidence: round(confidence) };
  confidence += FIRST_WEIGHT[first];
  if (!double && q.middle !== '' && c.middle !== '') confidence += WEIGHT.middle;
  const scored: Scored = { type: 'Individual', confidence: round(Math.min(1, confidence)) };
  if (last === 'particle' || last === 'part') scored.nameForm = last === 'particle' ? 'surname-particle' : 'surname-part';
  if ((first === 'typo' || first === 'variant') && !proven) scored.looseFirst = true;
  return scored;
}

type Place = 'same-unit' | 'same' | 'different';

export function samePlace(q: IdentityFeatures, c: IdentityFeatures): Place {
  if (q.zip5 !== '' && q.zip5 !== c.zip5) return 'different';
  if (q.street === undefined) {
    // First + last + ZIP+4: the +4 names a block face or a building.
    return q.plus4 !== '' && q.plus4 === c.plus4 ? 'same' : 'different';
  }
  if (q.zip5 === '') {
    if (q.state === '' || q.state !== c.state) return 'different';
    if (q.city === '' || jaroWinkler(q.city, c.city) < CITY_TYPO) return 'different';
  }
  if (c.street === undefined) return 'different';
  return sameStreet(q.street, c.street);
}

function sameStreet(q: ParsedStreet, c: ParsedStreet): Place {
  if ((q.number ?? '') !== (c.number ?? '')) return 'different';
  if (q.name === '' || c.name === '') return 'different';
  // A numbered road under another class word is the same road; another number never is.
  const road = sameNumberedRoad(q.name, c.name);
  if (road === false || (road === undefined && !sameNumbersInName(q.name, c.name))) return 'different';
  if (road === undefined && q.name !== c.name && jaroWinkler(q.name, c.name) < STREET_TYPO && !oneSlipApart(q.name, c.name))
    return 'different';
  if (differ(q.suffix, c.suffix) || differ(q.preDirectional, c.preDirectional) || differ(q.postDirectional, c.postDirectional)) {
    return 'different';
  }
  // Another apartment is another household; a unit left out is only missing; `3-C` is `3C`.
  const qUnit = unitIdKey(q.unitId);
  const cUnit = unitIdKey(c.unitId);
  if (differ(qUnit, cUnit)) return 'different';
  return qUnit !== undefined && qUnit === cUnit ? 'same-unit' : 'same';
}

type FirstAgreement = 'exact' | 'nickname' | 'variant' | 'typo' | 'initial' | 'none';

const FIRST_WEIGHT = {
  exact: WEIGHT.firstExact,
  nickname: WEIGHT.firstNickname,
  variant: WEIGHT.firstVariant,
  typo: WEIGHT.firstTypo,
  initial: WEIGHT.firstInitial,
} as const;

function firstAgreement(q: string, c: string): FirstAgreement {
  const agreement = firstNamesAgree(q, c);
  if (agreement !== 'none') return agreement;
  if (spellingVariants(q, c)) return 'variant';
  return oneSlipApart(q, c) ? 'typo' : 'none';
}

/**
 * The precision rule: one slip between two names that are both real first names (`Joan` and
 * `John`, `Carol` and `Carl`) is two people, not a typo; a slip into something that is no name
 * (`Jhon`) stays a typo.
 */
function twoNames(a: string, b: string): boolean {
  return isKnownFirstName(a) && isKnownFirstName(b);
}

/** One side's first and (full) middle names, joined, are the other's first name. */
function doubleFirstName(q: IdentityFeatures, c: IdentityFeatures): boolean {
  if (q.first === c.first) return false;
  return joinedIs(q.first, q.middle, c.first) || joinedIs(c.first, c.middle, q.first);
}

/** `first + middle === whole`, without building the joined string (this runs per candidate). */
function joinedIs(first: string, middle: string, whole: string): boolean {
  return middle.length > 1 && first.length + middle.length === whole.length && whole.startsWith(first) && whole.endsWith(middle);
}

/** Middle names conflict only when both are given and neither is the other's initial. */
function conflicts(a: string, b: string): boolean {
  if (a === '' || b === '') return false;
  if (a.length === 1 || b.length === 1) return a[0] !== b[0];
  return a !== b;
}

function differ(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && a !== b;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
