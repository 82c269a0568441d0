/** Request and answer types of each operation, read from the generated OpenAPI types. */
import type { operations } from './generated/openapi.js';

type Op = keyof operations;
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type BodyOf<O extends Op> = NonNullable<operations[O]['requestBody']> extends { content: { 'application/json': infer B } } ? B : never;

/** The query of an operation (without `api_key`: the client adds the key). */
export type QueryOf<O extends Op> = NonNullable<operations[O]['parameters']['query']>;
/** The JSON answer of an operation for status S. */
export type AnswerOf<O extends Op, S extends keyof operations[O]['responses'] = 200 & keyof operations[O]['responses']> = JsonOf<
  operations[O]['responses'][S]
>;

/**
 * A flag of the contract, `true` or `false` on the wire: a boolean, or that string. The OpenAPI
 * document types every query parameter as a string; the client sends `String(value)`.
 */
export type Flag = boolean | 'true' | 'false';

export type VerifyAnswer = AnswerOf<'verifyEmail'>;
export type VerifyOptions = Omit<QueryOf<'verifyEmail'>, 'email' | 'timeout' | 'explain'> & {
  /** Seconds, decimals allowed; default 10, capped at 30. */
  timeout?: number | string;
  /** Add `evidence` beside the verdict (keys with the evidence permission; others get the answer without it). */
  explain?: Flag;
};
/** The `evidence` object of a verdict asked with `explain: true`. */
export type VerifyEvidence = NonNullable<VerifyAnswer['evidence']>;
export type EnrichQuery = QueryOf<'enrichPerson'>;
export type EnrichmentRecord = AnswerOf<'enrichPerson'>;
export type EnrichBulkRecord = BodyOf<'enrichBulk'>[number];
export type EnrichBulkElement = AnswerOf<'enrichBulk'>[number];
export type AppendQuery = QueryOf<'appendIdentity'>;
export type AppendAnswer = AnswerOf<'appendIdentity'>;
export type AppendBulkRecord = BodyOf<'appendIdentityBulk'>[number];
export type SubmitParams = Omit<QueryOf<'submitList'>, 'header' | 'report' | 'email_column' | 'evidence'> & {
  /** The first row is a header (needed for columns other than email). Default false. */
  header?: Flag;
  /** Only a match report until purchase (not for verification). Default false. */
  report?: Flag;
  /**
   * Keep each row's verification evidence, served by `lists.evidence` / `lists.downloadEvidence`
   * (keys with the evidence permission; for others the list runs without it). Default false.
   */
  evidence?: Flag;
  /** 1-based index of the email column. */
  email_column?: number | string;
};
export type SubmittedList = AnswerOf<'submitList', 202>;
export type ListResource = AnswerOf<'getList'>;
export type ListStatus = ListResource['status'];
export type ListPage = AnswerOf<'listLists'>;
export type PurchaseRequest = BodyOf<'purchaseList'>;
export type ErrorBody = AnswerOf<'getList', 404>;
