export { parseAppendRequest, NOT_ENOUGH_TO_APPEND, type AppendRequest } from './append-request.js';
export {
  createAppendService,
  countAppended,
  MAX_APPENDED_EMAILS,
  type AppendAnswer,
  type AppendMatch,
  type AppendRefusal,
  type AppendService,
} from './append-service.js';
export { individualMatcher } from './person-matcher.js';
