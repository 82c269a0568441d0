/** The candidate blocks of a query, and the blocking columns stored with each person. */
import { parseStreet } from '../address/index.js';
import { lastNamePhonetic, normalizePersonName } from '../name/index.js';
import type { CandidateBlock } from './candidate-block.js';
import type { IdentityFeatures } from './features.js';

export function blocksFor(q: IdentityFeatures): CandidateBlock[] {
  const blocks: CandidateBlock[] = [];
  const house = q.street?.number ?? '';
  if (q.zip5 !== '') {
    if (house !== '') blocks.push({ kind: 'zip-house', zip5: q.zip5, houseNumber: house });
    if (q.lastPhonetic !== '') blocks.push({ kind: 'phonetic-zip', zip5: q.zip5, lastPhonetic: q.lastPhonetic });
  } else if (house !== '' && q.state !== '') {
    blocks.push({ kind: 'state-house', state: q.state, houseNumber: house });
  }
  return blocks;
}

/** Stored with every person so that each block kind is one indexed lookup. */
export interface BlockingColumns {
  houseNumber: string;
  lastPhonetic: string;
}

export function personBlockingColumns(p: { firstName: string; lastName: string; address: string }): BlockingColumns {
  const name = normalizePersonName({ first: p.firstName, last: p.lastName });
  return { houseNumber: parseStreet(p.address).number ?? '', lastPhonetic: lastNamePhonetic(name.last) };
}
