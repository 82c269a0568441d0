/**
 * Blocking keys: the cheap, indexed ways a query narrows the people store to a few candidates
 * before scoring. A person is stored with the same keys (see `personBlockingColumns`), so the
 * store can answer each kind with one indexed lookup.
 *
 * - `zip-house`: ZIP5 + house number — the address, whatever the names say;
 * - `phonetic-zip`: last-name phonetic code + ZIP5 — catches a misspelt street or a query
 *   without one (first + last + ZIP+4);
 * - `state-house`: state + house number — the street + city + state shape without a ZIP.
 */
export type CandidateBlock =
  | { kind: 'zip-house'; zip5: string; houseNumber: string }
  | { kind: 'phonetic-zip'; zip5: string; lastPhonetic: string }
  | { kind: 'state-house'; state: string; houseNumber: string };

export function blockId(block: CandidateBlock): string {
  switch (block.kind) {
    case 'zip-house':
      return `zh:${block.zip5}:${block.houseNumber}`;
    case 'phonetic-zip':
      return `pz:${block.zip5}:${block.lastPhonetic}`;
    case 'state-house':
      return `sh:${block.state}:${block.houseNumber}`;
  }
}
