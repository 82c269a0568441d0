/**
 * The matcher: blocks → one store lookup for every block of every query → score → rank. A bulk
 * call costs one candidate query per block kind and chunk, never one per record; a second one
 * only when some query found nobody at its address, for the other ZIPs of its city
 * (zip-correction.ts).
 */
import type { PersonRecord } from '../../people/person.js';
import type { CandidateStore } from './candidate-store.js';
import { blocksFor } from './blocking.js';
import { blockId, type CandidateBlock } from './candidate-block.js';
import { cachedPersonFeatures, queryFeatures, type IdentityFeatures } from './features.js';
import { giveWayToHousemates } from './housemates.js';
import { rankMatches } from './rank.js';
import { scoreCandidate, type Scored } from './score.js';
import { anyoneAtAddress, correctionBlocks, scoreCorrected } from './zip-correction.js';
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

    const byBlock = new Map<string, Candidate[]>();
    const fetch = async (wanted: ReadonlyMap<string, CandidateBlock>) => {
      for (const person of await deps.people.findCandidates([...wanted.values()])) {
        const entry = { person, features: personFeatures(person) };
        for (const id of personBlockIds(entry.features)) {
          if (!wanted.has(id)) continue;
          let list = byBlock.get(id);
          if (list === undefined) byBlock.set(id, (list = []));
          list.push(entry);
        }
      }
    };
    await fetch(unique);

    // Nobody held at the address in the ZIP given: look at the other ZIPs of the city.
    const corrections = prepared.map(({ features, blocks }, i) => {
      const home = blocks.find((b) => b.kind === 'zip-house');
      if (
        home === undefined ||
        anyoneAtAddress(
          features,
          (byBlock.get(blockId(home)) ?? []).map((c) => c.features),
        )
      )
        return [];
      return correctionBlocks(queries[i]!, features);
    });
    const more = new Map<string, CandidateBlock>();
    for (const blocks of corrections) for (const block of blocks) if (!unique.has(blockId(block))) more.set(blockId(block), block);
    if (more.size > 0) await fetch(more);

    return prepared.map(({ features, blocks }, i) => {
      if (corrections[i]!.length > 0) {
        const candidates = unionOf(corrections[i]!, byBlock);
        const corrected = scoreCorrected(features, candidates);
        if (corrected.length > 0) return rankMatches(corrected);
      }
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

type Candidate = { person: PersonRecord; features: IdentityFeatures };

/** The candidates of the blocks, each person once. */
function unionOf(blocks: readonly CandidateBlock[], byBlock: ReadonlyMap<string, Candidate[]>): Candidate[] {
  const seen = new Set<number>();
  const out: Candidate[] = [];
  for (const block of blocks)
    for (const c of byBlock.get(blockId(block)) ?? []) {
      if (seen.has(c.person.id)) continue;
      seen.add(c.person.id);
      out.push(c);
    }
  return out;
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
