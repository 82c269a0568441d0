/** Route schemas for /v5/td and /v5/ei/bulk (documentation and the response allow-list). */
import { Type } from 'typebox';
import { EAM_FIELDS, RECORD_FIELDS } from '../../people/field-names.js';

const text = (description: string) => Type.Optional(Type.String({ description }));

export const TdQuery = Type.Object({
  email: text('Raw address, URL encoded'),
  sha1_email: text('SHA-1 hex of the lower-cased, trimmed address'),
  md5_email: text('MD5 hex of the lower-cased, trimmed address'),
  first: text('First name'),
  middle: text('Middle name'),
  last: text('Last name'),
  street: text('Street address (needs first and last)'),
  city: text('City (needs first and last)'),
  state: text('Two-letter state abbreviation'),
  zip: text('Five digits, optionally a dash and four digits'),
  zip4: text('Another name for zip'),
  fields: text(`Comma-separated: ${[...RECORD_FIELDS, ...EAM_FIELDS].join(', ')}`),
  format: Type.Optional(Type.Literal('html', { description: 'html pretty-prints the record for a browser' })),
  api_key: Type.String({ description: 'API key' }),
});

/** One element of a `/v5/ei/bulk` body: the single query's identifiers (no key, fields or format). */
const { api_key: _key, fields: _fields, format: _format, ...identifiers } = TdQuery.properties;
export const BulkRequest = Type.Array(Type.Object(identifiers), {
  maxItems: 5_000,
  description: 'At most 5,000 queries, each as the query parameters of GET /v5/td',
});

export const BulkQuery = Type.Object({
  api_key: Type.String({ description: 'API key' }),
  fields: text('Comma-separated field names; default all the key allows'),
});

const Eam = Type.Object({
  date_first_seen: Type.Optional(Type.String()),
  longevity: Type.Optional(Type.Integer({ minimum: 0, maximum: 3 })),
  velocity: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
  popularity: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
  month_last_open: Type.Optional(Type.String()),
});

export const PostalAddress = Type.Object({
  first_name: Type.String(),
  last_name: Type.String(),
  address: Type.String(),
  city: Type.String(),
  state: Type.String(),
  zip: Type.String(),
});

const scalarFields = Object.fromEntries(
  RECORD_FIELDS.filter((f) => f !== 'eam' && f !== 'postal_address' && f !== 'interests').map((f) => [
    f,
    Type.Optional(f.startsWith('rfm_') && f !== 'rfm_last_order' ? Type.Integer() : Type.String()),
  ]),
);

/** The flat enrichment record; `{}` when nothing matched. */
export const EnrichmentRecordSchema = Type.Object({
  ...scalarFields,
  interests: Type.Optional(Type.Record(Type.String(), Type.Literal(true))),
  eam: Type.Optional(Eam),
  postal_address: Type.Optional(PostalAddress),
});

/**
 * One element of a bulk answer: a record, `{}`, or the per-record error element. One object
 * with every property optional rather than a union, so serialising 5,000 elements needs no
 * runtime schema match per element.
 */
export const BulkElement = Type.Object({
  ...EnrichmentRecordSchema.properties,
  error_code: Type.Optional(Type.Integer()),
  error_msg: Type.Optional(Type.String()),
});

/** `/v5/td` answers JSON, or an HTML page of the same record with `format=html`. */
export const EnrichmentAnswer = {
  description: 'The enrichment record: only fields the key allows and the person has; `{}` when nobody matched',
  content: {
    'application/json': { schema: EnrichmentRecordSchema },
    'text/html': { schema: { type: 'string', description: 'With format=html: the record pretty-printed' } },
  },
};
