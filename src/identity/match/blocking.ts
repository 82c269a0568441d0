/** The candidate blocks of a query, and the blocking columns stored with each person. */
import { parseStreet } from '../address/index.js';
import { lastNamePhonetic, normalizePersonName } from '../name/index.js';
import type { CandidateBlock } from './candidate-block.js';
import type { IdentityFeatures } from './features.js';
import type { BlockingColumns } from '../../people/people-store.js';

export type { BlockingColumns };

export function blocksFor(q: IdentityFeatures): CandidateBlock[] {
  const blocks: CandidateBlock[] = [];
  const house = q.street?.number ?? '';
  if (q.zip5 !== '') {
    if (house !== '') blocks.push({ kind: 'zip-house', zip5: q.zip5, houseNumber: house });
    for (const code of nameCodes(q, house === '')) blocks.push({ kind: 'phonetic-zip', zip5: q.zip5, lastPhonetic: code });
  } else if (house !== '' && q.state !== '') {
    blocks.push({ kind: 'state-house', state: q.state, houseNumber: house });
  }
  return blocks;
}

/**
 * The last-name codes to look up with the ZIP: the query's own, and — only when no house number
 * brings in everybody at the address anyway — those of the other forms its names may take: the
 * first name (for `Smith John`, swapped) and each word of a compound surname (`Garcia-Lopez` →
 * `Garcia`, `Lopez`; `De La Cruz` → `Cruz`). The reverse (a query of `Garcia` for a stored
 * `Garcia-Lopez`) has no code to look up: it is found through the address only.
 */
function nameCodes(q: IdentityFeatures, otherForms: boolean): string[] {
  // A last name without a code (another script) keys nothing, its other forms included.
  if (q.lastPhonetic === '') return [];
  const codes = new Set<string>([q.lastPhonetic]);
  if (otherForms) {
    if (q.first.length > 1) codes.add(lastNamePhonetic(q.first));
    if (q.lastGroups.length > 1 || q.lastGroups.some((g) => g.core !== g.full)) {
      for (const group of q.lastGroups) codes.add(lastNamePhonetic(group.core)).add(lastNamePhonetic(group.full));
    }
  }
  codes.delete('');
  return [...codes];
}

/** The blocking columns stored with every person (people/person-row.ts `preparePeople` is given this). */
export function personBlockingColumns(p: { firstName: string; lastName: string; address: string }): BlockingColumns {
  const name = normalizePersonName({ first: p.firstName, last: p.lastName });
  return { houseNumber: parseStreet(p.address).number ?? '', lastPhonetic: lastNamePhonetic(name.last) };
}
