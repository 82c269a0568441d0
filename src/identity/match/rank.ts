/**
 * Orders scored candidates: Individual first, then by confidence, then by id (stable answers).
 * Two people at one address can both pass the Individual gate (a typo that lands on a sibling's
 * name); only the best keeps the label, and the others are what they surely are: the household.
 * When the best is shared (`J Smith` at John and Jane Smith's, two John Smiths without Jr/Sr),
 * nothing tells them apart, so none keeps it: naming one would be a guess.
 */
import type { PersonRecord } from '../../enrichment/person.js';
import type { Scored } from './score.js';
import type { IdentityMatch } from './types.js';

export const MAX_MATCHES = 10;

export function rankMatches(scored: readonly { person: PersonRecord; score: Scored }[]): IdentityMatch[] {
  const individual = scored.filter((s) => s.score.type === 'Individual').map((s) => s.score.confidence);
  const best = Math.max(-1, ...individual);
  const tied = individual.filter((confidence) => confidence === best).length > 1;
  return scored
    .map(({ person, score }) => ({
      person,
      type: score.type === 'Individual' && (score.confidence < best || tied) ? ('Household' as const) : score.type,
      confidence: score.confidence,
    }))
    .sort((a, b) => typeRank(a.type) - typeRank(b.type) || b.confidence - a.confidence || a.person.id - b.person.id)
    .slice(0, MAX_MATCHES);
}

function typeRank(type: IdentityMatch['type']): number {
  return type === 'Individual' ? 0 : 1;
}
