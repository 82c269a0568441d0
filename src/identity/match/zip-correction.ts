/**
 * ZIP correction within a city, as address-correction software does it: a query whose address
 * (house number and street) nobody held lives at in the ZIP given, but somebody held lives at in
 * exactly one other ZIP of the same city and state, is matched there — as a weaker signal. Through
 * a corrected ZIP the match is Individual only when the name agrees exactly (first and last as
 * written, nothing conflicting); anything weaker (a nickname, an initial, a typo, another form)
 * gives the household only. Two or more other ZIPs with the address: no guess, no match.
 *
 * The other ZIPs come from the ZIP reference (identity/postal): each is one `zip-house` block,
 * the same indexed look-up as the first pass, asked only for the queries that found nobody at
 * their address.
 */
import { cityOfZip, stateOfZip, zip5sFor } from '../postal/index.js';
import type { CandidateBlock } from './candidate-block.js';
import type { IdentityFeatures } from './features.js';
import { samePlace, scoreCandidate, type Scored } from './score.js';
import type { IdentityQuery } from './types.js';

/**
 * A city with more ZIPs than this is not searched: the most in the reference are the military
 * `APO AE` (277) and Washington DC (274, mostly unique ZIPs of agencies); Houston has 190.
 */
const MAX_OTHER_ZIPS = 300;
/** How much weaker than the same match through the ZIP given. */
const CORRECTED = 0.9;

/**
 * The blocks of the other ZIPs of the query's city (the city of the ZIP given, when the query
 * names none), or none when the query cannot be corrected.
 */
export function correctionBlocks(query: IdentityQuery, q: IdentityFeatures): CandidateBlock[] {
  const house = q.street?.number;
  if (house === undefined || house === '' || q.zip5 === '') return [];
  const named = query.city !== undefined && query.city.trim() !== '' && query.state !== undefined && query.state.trim() !== '';
  const city = named ? query.city! : cityOfZip(q.zip5);
  const state = named ? query.state! : stateOfZip(q.zip5);
  if (city === undefined || state === undefined) return [];
  const zips = zip5sFor(city, state).filter((zip) => zip !== q.zip5);
  if (zips.length > MAX_OTHER_ZIPS) return [];
  return zips.map((zip5) => ({ kind: 'zip-house', zip5, houseNumber: house }));
}

/** Whether anybody among `candidates` lives at the query's address (its ZIP as given). */
export function anyoneAtAddress(q: IdentityFeatures, candidates: Iterable<IdentityFeatures>): boolean {
  for (const c of candidates) if (samePlace(q, c) !== 'different') return true;
  return false;
}

/**
 * Scores the candidates of the other ZIPs' blocks: only when the address is held in exactly one
 * of them, and then as a weaker match (see above).
 */
export function scoreCorrected<P>(
  q: IdentityFeatures,
  candidates: readonly { person: P; features: IdentityFeatures }[],
): { person: P; score: Scored }[] {
  const at = candidates.filter((c) => c.features.zip5 !== q.zip5 && samePlace({ ...q, zip5: c.features.zip5 }, c.features) !== 'different');
  const zips = new Set(at.map((c) => c.features.zip5));
  if (zips.size !== 1) return [];
  const corrected = { ...q, zip5: [...zips][0]!, plus4: '' };
  const scored: { person: P; score: Scored }[] = [];
  for (const c of at) {
    const score = scoreCandidate(corrected, c.features);
    if (score === undefined) continue;
    const exactName = score.nameForm === undefined && q.first === c.features.first && q.last === c.features.last;
    const type = score.type === 'Individual' && exactName ? 'Individual' : 'Household';
    scored.push({ person: c.person, score: { type, confidence: Math.round(score.confidence * CORRECTED * 1000) / 1000 } });
  }
  return scored;
}
