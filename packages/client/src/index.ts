/** @mailsure/client: a typed client of the Mailsure API. */
export { MailsureClient, type ClientOptions } from './client.js';
export { ListsApi, FINISHED_STATUSES, type ListFile, type ListSource, type WaitOptions } from './lists.js';
export { progressOf, type Progress, type ServiceName, type ServiceProgress, type ServiceStatus } from './progress.js';
export {
  describeFailure,
  MailsureError,
  unwrap,
  type Failure,
  type FileFailure,
  type HttpFailure,
  type NetworkFailure,
  type Result,
} from './errors.js';
export type { TransportOptions } from './transport.js';
export type * from './types.js';
export type { components, operations, paths } from './generated/openapi.js';
