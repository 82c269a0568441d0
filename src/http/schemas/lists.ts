/** Route schemas of the List API (documentation; bodies are rendered by lists/pipeline/list-resource.ts). */
import { Type } from 'typebox';

const text = (description: string) => Type.Optional(Type.String({ description }));

export const ListIdParams = Type.Object({ list_id: Type.String({ pattern: '^[0-9]{1,15}$', description: 'Numeric list id' }) });

export const SubmitQuery = Type.Object({
  email_column: text('1-based index of the email column'),
  header: text('true or false (default false); true is required for non-email fields'),
  delimiter: text('Column separator: one character, or `tab`'),
  report: text('true: only a match report until purchase (not for verification)'),
  name: text('File name ending .csv, .txt or .zip (default: the uploaded file name, else myfile.csv)'),
  fields: text('Comma-separated enrichment fields to return'),
  callback_url: text('https (or http) URL, at most 512 characters, POSTed the list when it finishes'),
});

export const PageQuery = Type.Object({
  page: text('1-based page number (default 1)'),
  per_page: text('Lists per page, 1 to 100 (default 20)'),
});
