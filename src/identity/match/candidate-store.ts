/** What the matcher needs from the people store (storage/ implements it on every engine). */
import type { PersonRecord } from '../../people/person.js';
import type { CandidateBlock } from './candidate-block.js';

export interface CandidateStore {
  /**
   * Every person in any of the blocks, each once, with their emails in order. The store keys a
   * person by `personBlockingColumns` (blocking.ts) plus its ZIP5 and state.
   */
  findCandidates(blocks: readonly CandidateBlock[]): Promise<PersonRecord[]>;
}
