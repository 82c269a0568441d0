/**
 * The submit call's query parameters and the purchase body, checked before anything is stored.
 * Failure reasons are the 400 messages.
 */
import { errors } from '../../core/errors.js';
import { canonicalFieldName } from '../../people/field-names.js';
import { parseFieldsParam } from '../../enrichment/field-selection.js';
import { validateCallbackUrl } from '../callback/callback-url.js';
import { parseEmailColumn } from '../input/email-column.js';
import { parseDelimiter } from '../input/list-name.js';
import { fail, ok, type Outcome } from '../outcome.js';
import type { Purchase } from './list-results.js';

export interface SubmitParams {
  emailColumn?: number;
  header: boolean;
  delimiter?: string;
  report: boolean;
  name?: string;
  /** Canonical field names; null for every field the key allows. */
  fields: string[] | null;
  callbackUrl?: URL;
  /** Keep each row's evidence for the evidence file (kept only when the key has the evidence permission). */
  evidence: boolean;
}

export function parseSubmitQuery(query: Record<string, string | undefined>): Outcome<SubmitParams> {
  const header = parseBoolean('header', query.header);
  if (!header.ok) return header;
  const report = parseBoolean('report', query.report);
  if (!report.ok) return report;
  const evidence = parseBoolean('evidence', query.evidence);
  if (!evidence.ok) return evidence;
  const emailColumn = parseEmailColumn(query.email_column);
  if (!emailColumn.ok) return emailColumn;
  const delimiter = parseDelimiter(query.delimiter);
  if (!delimiter.ok) return delimiter;
  const fields = parseFieldsParam(query.fields);
  if ('error' in fields) return fail(fields.error);
  const out: SubmitParams = {
    header: header.value,
    report: report.value,
    fields: fields.fields === null ? null : [...fields.fields],
    evidence: evidence.value,
  };
  if (emailColumn.value !== undefined) out.emailColumn = emailColumn.value;
  if (delimiter.value !== undefined) out.delimiter = delimiter.value;
  if (query.name !== undefined && query.name.trim() !== '') out.name = query.name.trim();
  if (query.callback_url !== undefined && query.callback_url !== '') {
    const url = validateCallbackUrl(query.callback_url);
    if (!url.ok) return url;
    out.callbackUrl = url.value;
  }
  return ok(out);
}

function parseBoolean(name: string, raw: string | undefined): Outcome<boolean> {
  if (raw === undefined || raw === '') return ok(false);
  const value = raw.trim().toLowerCase();
  if (value === 'true') return ok(true);
  if (value === 'false') return ok(false);
  return fail(errors.invalidParameter(name, 'must be true or false').message);
}

/** `{fields?: string[], options?: {email_append?: {match_type?: 'I' | 'H'}}}`; absent is `{}`. */
export function parsePurchase(body: unknown): Outcome<Purchase> {
  if (body === undefined || body === null) return ok({});
  if (typeof body !== 'object' || Array.isArray(body)) return fail('Invalid purchase: the body must be a JSON object');
  const { fields, options } = body as { fields?: unknown; options?: unknown };
  const out: Purchase = {};
  if (fields !== undefined) {
    if (!Array.isArray(fields) || !fields.every((f) => typeof f === 'string'))
      return fail('Invalid purchase: fields must be an array of field names');
    const unknown = (fields as string[]).filter((f) => canonicalFieldName(f) === undefined);
    if (unknown.length > 0) return fail(`Invalid purchase: unknown field ${unknown.slice(0, 5).join(', ')}`);
    out.fields = (fields as string[]).map((f) => canonicalFieldName(f)!);
  }
  if (options !== undefined) {
    const matchType = (options as { email_append?: { match_type?: unknown } } | null)?.email_append?.match_type;
    if (typeof options !== 'object' || options === null) return fail('Invalid purchase: options must be an object');
    if (matchType !== undefined) {
      if (matchType !== 'I' && matchType !== 'H') return fail('Invalid purchase: options.email_append.match_type must be "I" or "H"');
      out.matchType = matchType;
    }
  }
  return ok(out);
}
