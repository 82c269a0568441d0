/**
 * The matcher: blocks → one store lookup for every block of every query → score → rank. A bulk
 * call costs one candidate query per block kind and chunk, never one per record.
 */
import type { PersonRecord } from '../../people/person.js';
import type { CandidateStore } from './candidate-store.js';
import { blocksFor } from './blocking.js';
import { blockId, type CandidateBlock } from './candidate-block.js';
import { cachedPersonFeatures, queryFeatures, type IdentityFeatures } from './features.js';
import { giveWayToHousemates } from './housemates.js';
import { rankMatches } from './rank.js';
import { scoreCandidate, type Scored } from './score.js';
import type { IdentityMatch, IdentityMatcher, IdentityQuery } from './types.js';

export function createIdentityMatcher(deps: { people: CandidateStore }): IdentityMatcher {
  const personFeatures = cachedPersonFeatures();
  const matchMany = async (queries: readonly IdentityQuery[]): Promise<IdentityMatch[][]> => {
    const prepared = queries.map((query) => {
      const features = queryFeatures(query);
      return { features, blocks: blocksFor(features) };
    });
    const unique = new Map<string, CandidateBlock>();
    for (const { blocks } of prepared) for (const block of blocks) unique.set(blockId(block), block);
    if (unique.size === 0) return queries.map(() => []);

    const people = await deps.people.findCandidates([...unique.values()]);
    const byBlock = new Map<string, { person: PersonRecord; features: IdentityFeatures }[]>();
    for (const person of people) {
      const entry = { person, features: personFeatures(person) };
      for (const id of personBlockIds(entry.features)) {
        if (!unique.has(id)) continue;
        let list = byBlock.get(id);
        if (list === undefined) byBlock.set(id, (list = []));
        list.push(entry);
      }
    }

    return prepared.map(({ features, blocks }) => {
      const seen = new Set<number>();
      const scored: { person: PersonRecord; features: IdentityFeatures; score: Scored }[] = [];
      for (const block of blocks) {
        for (const candidate of byBlock.get(blockId(block)) ?? []) {
          if (seen.has(candidate.person.id)) continue;
          seen.add(candidate.person.id);
          const score = scoreCandidate(features, candidate.features);
          if (score !== undefined) scored.push({ person: candidate.person, features: candidate.features, score });
        }
      }
      giveWayToHousemates(features, scored);
      return rankMatches(scored);
    });
  };
  return {
    async match(query) {
      return (await matchMany([query]))[0]!;
    },
    matchMany,
  };
}

/** Every block a stored person falls in, computed from the same features as a query's. */
function personBlockIds(f: IdentityFeatures): string[] {
  const house = f.street?.number ?? '';
  const ids: string[] = [];
  if (f.zip5 !== '' && house !== '') ids.push(blockId({ kind: 'zip-house', zip5: f.zip5, houseNumber: house }));
  if (f.zip5 !== '' && f.lastPhonetic !== '') ids.push(blockId({ kind: 'phonetic-zip', zip5: f.zip5, lastPhonetic: f.lastPhonetic }));
  if (f.state !== '' && house !== '') ids.push(blockId({ kind: 'state-house', state: f.state, houseNumber: house }));
  return ids;
}
