/** @mailsure/client: a typed client of the Mailsure API. */
export { MailsureClient, type ClientOptions } from './client.js';
export { ListsApi, FINISHED_STATUSES, progressOf, type ListSource, type Progress, type WaitOptions } from './lists.js';
export { describeFailure, MailsureError, unwrap, type Failure, type HttpFailure, type NetworkFailure, type Result } from './errors.js';
export type { TransportOptions } from './transport.js';
export type * from './types.js';
export type { components, operations, paths } from './generated/openapi.js';
