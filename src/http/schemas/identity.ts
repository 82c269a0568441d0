/** Route schemas for /v5/eppend and /v5/eppend/bulk (documentation and the response allow-list). */
import { Type } from 'typebox';
import { PostalAddress } from './enrichment.js';

const text = (description: string) => Type.Optional(Type.String({ description }));

export const EppendQuery = Type.Object({
  email: text('Address whose postal address to append'),
  first: text('First name (email append)'),
  middle: text('Middle name'),
  last: text('Last name (email append)'),
  street: text('Street address'),
  city: text('City'),
  state: text('Two-letter state abbreviation'),
  zip: text('Five digits, optionally a dash and four digits'),
  zip4: text('Another name for zip'),
  api_key: Type.String({ description: 'API key' }),
});

const { api_key: _key, ...appendIdentifiers } = EppendQuery.properties;
export const AppendBulkRequest = Type.Array(Type.Object(appendIdentifiers), {
  maxItems: 1_250,
  description: 'At most 1,250 queries, each as the query parameters of GET /v5/eppend',
});

export const EppendBulkQuery = Type.Object({ api_key: Type.String({ description: 'API key' }) });

const EmailAppendEntry = Type.Object({
  email: Type.String(),
  email_match_type: Type.Union([Type.Literal('Individual'), Type.Literal('Household')]),
});

/** `{}`, a match (email_append and/or postal_address), or the per-record error element. */
export const AppendAnswerSchema = Type.Object({
  email_append: Type.Optional(Type.Array(EmailAppendEntry)),
  postal_address: Type.Optional(PostalAddress),
  error_code: Type.Optional(Type.Integer()),
  error_msg: Type.Optional(Type.String()),
});
