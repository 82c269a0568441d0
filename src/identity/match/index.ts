export type { IdentityMatch, IdentityMatcher, IdentityQuery, MatchType } from './types.js';
export type { CandidateBlock } from './candidate-block.js';
export type { CandidateStore } from './candidate-store.js';
export { createIdentityMatcher } from './identity-matcher.js';
export { personBlockingColumns, type BlockingColumns } from './blocking.js';
export {
  BLOCKING_VERSION,
  refreshBlockingColumns,
  type BlockingColumnsStore,
  type BlockingRefresh,
  type BlockingRow,
} from './refresh-blocking.js';
