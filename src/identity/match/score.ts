/**
 * Scores one candidate against a query: each field's agreement level adds its weight (the
 * Fellegi–Sunter idea: a field whose agreement is rare by chance weighs more), and two gates
 * decide the kind of match:
 *
 * - the address must be the same place (house number, street, unit where both give one, and the
 *   ZIP or the city and state; or, for a query without a street, the ZIP+4);
 * - the last name must agree (exactly, or one slip of the keyboard apart);
 * - then Individual when the first name agrees too (exactly, by nickname, within a typo, or as
 *   an initial) and nothing that tells two people apart disagrees (middle name, Jr/Sr);
 *   Household otherwise.
 *
 * Disagreement never passes a gate by weight alone: precision comes from the gates, the weights
 * only order what passed.
 */
import type { ParsedStreet } from '../address/index.js';
import { firstNamesAgree, generationOf, jaroWinkler, oneSlipApart } from '../name/index.js';
import type { IdentityFeatures } from './features.js';
import type { MatchType } from './types.js';

export interface Scored {
  type: MatchType;
  confidence: number;
}

/** Jaro–Winkler at or above which two street names are the same name mistyped (or one slip apart). */
const STREET_TYPO = 0.88;
const CITY_TYPO = 0.9;

const WEIGHT = {
  address: 0.4,
  unit: 0.05,
  lastExact: 0.2,
  lastTypo: 0.12,
  firstExact: 0.25,
  firstNickname: 0.2,
  firstTypo: 0.17,
  firstInitial: 0.1,
  middle: 0.05,
  email: 0.05,
} as const;

export function scoreCandidate(q: IdentityFeatures, c: IdentityFeatures): Scored | undefined {
  const place = samePlace(q, c);
  if (place === 'different') return undefined;
  const last = lastAgreement(q.last, c.last);
  if (last === 'none') return undefined;

  let confidence = WEIGHT.address + (place === 'same-unit' ? WEIGHT.unit : 0) + (last === 'exact' ? WEIGHT.lastExact : WEIGHT.lastTypo);
  const sharedEmail = q.emails.some((e) => c.emails.includes(e));
  if (sharedEmail) confidence += WEIGHT.email;

  const first = firstAgreement(q.first, c.first);
  const distinguishing = conflicts(q.middle, c.middle) || differ(generationOf(q.suffix) || undefined, generationOf(c.suffix) || undefined);
  // An initial or a typo in both names at once is too little to call it the same person.
  const weakFirst = first === 'initial' || first === 'typo';
  const individual = first !== 'none' && !distinguishing && !(weakFirst && last === 'typo');
  if (!individual) return { type: 'Household', confidence: round(confidence) };

  confidence += { exact: WEIGHT.firstExact, nickname: WEIGHT.firstNickname, typo: WEIGHT.firstTypo, initial: WEIGHT.firstInitial }[first];
  if (q.middle !== '' && c.middle !== '') confidence += WEIGHT.middle;
  return { type: 'Individual', confidence: round(Math.min(1, confidence)) };
}

type Place = 'same-unit' | 'same' | 'different';

function samePlace(q: IdentityFeatures, c: IdentityFeatures): Place {
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
  if (q.name !== c.name && jaroWinkler(q.name, c.name) < STREET_TYPO && !oneSlipApart(q.name, c.name)) return 'different';
  if (differ(q.suffix, c.suffix) || differ(q.preDirectional, c.preDirectional) || differ(q.postDirectional, c.postDirectional)) {
    return 'different';
  }
  // Another apartment is another household; a unit left out is only missing.
  if (differ(q.unitId, c.unitId)) return 'different';
  return q.unitId !== undefined && q.unitId === c.unitId ? 'same-unit' : 'same';
}

function lastAgreement(q: string, c: string): 'exact' | 'typo' | 'none' {
  if (q === '' || c === '') return 'none';
  if (q === c) return 'exact';
  return oneSlipApart(q, c) ? 'typo' : 'none';
}

function firstAgreement(q: string, c: string): 'exact' | 'nickname' | 'typo' | 'initial' | 'none' {
  const agreement = firstNamesAgree(q, c);
  if (agreement !== 'none') return agreement;
  return oneSlipApart(q, c) ? 'typo' : 'none';
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
