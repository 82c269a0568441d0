/**
 * Route schemas of the List API: parameters, and the list resource as lists/pipeline/list-resource.ts
 * renders it (these schemas are also the allow-list of what goes out, so every field it writes is here).
 */
import { Type } from 'typebox';
import { LIST_STATUSES, SERVICE_STATUSES } from '../../lists/list-record.js';

const text = (description: string) => Type.Optional(Type.String({ description }));
const literals = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));

export const ListIdParams = Type.Object({ list_id: Type.String({ pattern: '^[0-9]{1,15}$', description: 'Numeric list id' }) });

export const SubmitQuery = Type.Object({
  email_column: text('1-based index of the email column'),
  header: text('true or false (default false); true is required for non-email fields'),
  delimiter: text('Column separator: one character, or `tab`'),
  report: text('true: only a match report until purchase (not for verification)'),
  name: text('File name ending .csv, .txt or .zip (default: the uploaded file name, else myfile.csv)'),
  fields: text('Comma-separated enrichment fields to return'),
  callback_url: text('https (or http) URL, at most 512 characters, POSTed the list when it finishes'),
  evidence: text(
    'true or false (default false): keep each row’s verification evidence, served by GET /v5/list/{list_id}/evidence (keys with the evidence permission; for other keys the list runs without it). The results file is the same either way',
  ),
});

export const PageQuery = Type.Object({
  page: text('1-based page number (default 1)'),
  per_page: text('Lists per page, 1 to 100 (default 20)'),
});

/** The multipart body of a submission (documentation only: the route reads the part as a stream). */
export const SubmitBody = Type.Object(
  {
    file: Type.String({
      contentMediaType: 'application/octet-stream',
      description: 'The list: .csv, .txt (tab-delimited) or .zip holding exactly one of them',
    }),
  },
  { description: 'multipart/form-data with the file in the part named `file`' },
);

export const PurchaseBody = Type.Object(
  {
    fields: Type.Optional(Type.Array(Type.String(), { description: 'Fields to buy; all matched fields when omitted' })),
    options: Type.Optional(
      Type.Object({
        email_append: Type.Optional(
          Type.Object({
            match_type: Type.Optional(
              Type.Union([Type.Literal('I'), Type.Literal('H')], { description: 'I: individual matches, H: household matches' }),
            ),
          }),
        ),
      }),
    ),
  },
  { description: 'Optional: what to buy of what report=true held back' },
);

const Counts = Type.Record(Type.String(), Type.Integer());

const ValidationReport = Type.Object(
  {
    statuses: Counts,
    invalid_categories: Counts,
    domain_type: Counts,
    role_accounts: Type.Integer(),
    status_codes: Counts,
    trap_hits: Type.Optional(Type.Object({ 'Trap Hits': Type.Integer() })),
    verification_limited: Type.Optional(Counts),
    outcome_hits: Type.Optional(
      Type.Object(
        { 'Outcome Hits': Type.Integer(), 'Known Bouncers': Type.Integer(), 'Known Complainers': Type.Integer() },
        {
          description:
            "How many of the 520 and 525 hits came from the key's ingested ESP outcomes (docs/outcomes.md); present only when some did",
        },
      ),
    ),
  },
  { additionalProperties: true },
);
const IntelligenceReport = Type.Record(Type.String(), Type.Object({ 'Total Count': Type.Integer() }));
const AppendReport = Type.Object({ email_match_type: Counts }, { additionalProperties: true });

const service = <R extends Parameters<typeof Type.Optional>[0]>(reporting: R, description: string) =>
  Type.Optional(
    Type.Object(
      {
        input_count: Type.Integer({ minimum: 0 }),
        completed_count: Type.Integer({ minimum: 0, description: 'Progress: records done of input_count' }),
        status: literals(SERVICE_STATUSES),
        reporting: Type.Optional(reporting),
      },
      { description },
    ),
  );

export const ListBody = Type.Object(
  {
    list_id: Type.Integer(),
    name: Type.String(),
    status: literals(LIST_STATUSES),
    records: Type.Integer({ minimum: 0, description: 'Non-blank records, header excluded' }),
    size_bytes: Type.Integer({ minimum: 0 }),
    created_at: Type.String({ format: 'date-time' }),
    services: Type.Object({
      email_validation: service(ValidationReport, 'Verification of the list’s emails'),
      email_intelligence: service(IntelligenceReport, 'Enrichment: one report entry per matched field'),
      email_append: service(AppendReport, 'Email append from name and postal address'),
    }),
    error: Type.Optional(Type.String({ description: 'Why the list is Invalid or in Error' })),
  },
  { description: 'The list resource' },
);

export const SubmitAnswer = Type.Object(
  { list_id: Type.Integer(), size_bytes: Type.Integer({ minimum: 0 }) },
  {
    description: 'Accepted: the list is stored and queued',
    headers: { location: Type.String({ description: 'The list’s status address, /v5/list/{list_id}' }) },
  },
);

export const ListStatusAnswer = Type.Object(ListBody.properties, {
  description: 'The list resource',
  headers: {
    'retry-after': Type.Integer({ minimum: 1, description: 'Present while the list is unfinished: poll again after this many seconds' }),
  },
});

export const ListPageAnswer = Type.Object(
  {
    lists: Type.Array(ListBody),
    page: Type.Integer({ minimum: 1 }),
    per_page: Type.Integer({ minimum: 1 }),
    total: Type.Integer({ minimum: 0 }),
  },
  { description: 'The key’s lists, newest first' },
);

/** Plain OpenAPI-style response (no JSON body): the file, streamed as it is stored. */
export const ResultsFile = {
  description: 'The results file: a ZIP holding one file in the input’s format and delimiter',
  headers: { 'content-disposition': { type: 'string', description: 'attachment; filename="<name>-<list_id>-Service.zip"' } },
  content: { 'application/zip': { schema: { type: 'string', contentMediaType: 'application/zip' } } },
};

/** The evidence file, streamed as it is stored. */
export const EvidenceFile = {
  description:
    'The evidence file: a ZIP holding `<name>-<list_id>-Evidence.jsonl`, one JSON line per record in input order, `{"row":n,"email":"…","evidence":{…}}` (the evidence object of /v5/ev with explain=true; null for a record not verified)',
  headers: { 'content-disposition': { type: 'string', description: 'attachment; filename="<name>-<list_id>-Evidence.zip"' } },
  content: { 'application/zip': { schema: { type: 'string', contentMediaType: 'application/zip' } } },
};
