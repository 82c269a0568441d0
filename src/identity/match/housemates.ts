/**
 * The housemate half of the precision rule: the names of the people at the address are real names
 * too. A candidate whose first name agreed with the query's only loosely (a spelling variant or
 * one slip: `looseFirst`, score.ts) is not the one meant when another candidate there has the
 * query's first name itself, or as a nickname: the query names that housemate, whether or not the
 * housemate passes as the Individual (a conflicting middle name or generation may stop them).
 */
import { firstNamesAgree } from '../name/index.js';
import type { IdentityFeatures } from './features.js';
import type { Scored } from './score.js';

export function giveWayToHousemates(query: IdentityFeatures, scored: readonly { features: IdentityFeatures; score: Scored }[]): void {
  if (!scored.some((s) => s.score.looseFirst)) return;
  for (const entry of scored) {
    if (!entry.score.looseFirst) continue;
    const named = scored.some((other) => {
      if (other === entry || other.features.first === entry.features.first) return false;
      const agreement = firstNamesAgree(query.first, other.features.first);
      return agreement === 'exact' || agreement === 'nickname';
    });
    if (named) entry.score = { type: 'Household', confidence: entry.score.confidence };
  }
}
