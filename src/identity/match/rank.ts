/**
 * Orders scored candidates: Individual first, then by confidence, then by id (stable answers).
 * Two people at one address can both pass the Individual gate (a typo that lands on a sibling's
 * name); only the best keeps the label, and the others are what they surely are: the household.
 * When the best is shared (`J Smith` at John and Jane Smith's, two John Smiths without Jr/Sr),
 * nothing tells them apart, so none keeps it: naming one would be a guess.
 *
 * A match through another form of the name (a surname part, the middle name, the names swapped:
 * `nameForm`) competes only when no candidate passed with the name as written: a weaker name
 * agreement never outranks a stronger one, whatever the weights add up to.
 */
import type { PersonRecord } from '../../people/person.js';
import type { Scored } from './score.js';
import type { IdentityMatch } from './types.js';

export const MAX_MATCHES = 10;

export function rankMatches(scored: readonly { person: PersonRecord; score: Scored }[]): IdentityMatch[] {
  const passed = scored.filter((s) => s.score.type === 'Individual');
  const asWritten = passed.some((s) => s.score.nameForm === undefined);
  const contenders = (asWritten ? passed.filter((s) => s.score.nameForm === undefined) : passed).map((s) => s.score.confidence);
  const best = Math.max(-1, ...contenders);
  const tied = contenders.filter((confidence) => confidence === best).length > 1;
  const keeps = (score: Scored) =>
    score.type === 'Individual' && (!asWritten || score.nameForm === undefined) && score.confidence === best && !tied;
  return scored
    .map(({ person, score }) => ({
      person,
      type: keeps(score) ? ('Individual' as const) : ('Household' as const),
      confidence: score.confidence,
    }))
    .sort((a, b) => typeRank(a.type) - typeRank(b.type) || b.confidence - a.confidence || a.person.id - b.person.id)
    .slice(0, MAX_MATCHES);
}

function typeRank(type: IdentityMatch['type']): number {
  return type === 'Individual' ? 0 : 1;
}
