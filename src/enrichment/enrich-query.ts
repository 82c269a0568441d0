/**
 * One enrichment request's identifying parameters (api-reference /v5/td, decisions §5), parsed
 * and checked. Shared by /v5/td and each element of /v5/ei/bulk, so both give the same messages.
 */
import { classifySyntax } from '../verification/syntax.js';
import { normalizeEmail } from '../people/email-hash.js';
import { isUsStateCode } from '../people/us-states.js';

export interface EnrichQuery {
  /** Lower-cased, trimmed. */
  email?: string;
  /** Lower-case hex. */
  sha1?: string;
  md5?: string;
  name?: { first: string; last: string; middle?: string };
  postal?: { street?: string; city?: string; state?: string; zip5?: string; plus4?: string };
}

const MAX_VALUE = 256;
const ZIP = /^(\d{5})(?:-(\d{4}))?$/;
const PARAMS = ['email', 'sha1_email', 'md5_email', 'first', 'last', 'middle', 'street', 'city', 'state', 'zip', 'zip4'] as const;

export const NOT_IDENTIFYING =
  'Not enough to identify a person: give email, sha1_email or md5_email, or first and last with a postal address (street with city and state, or a ZIP+4)';

export function parseEnrichQuery(params: Record<string, unknown>): { query: EnrichQuery } | { error: string } {
  const values: Partial<Record<(typeof PARAMS)[number], string>> = {};
  for (const name of PARAMS) {
    const raw = params[name];
    if (raw === undefined || raw === null) continue;
    if (typeof raw !== 'string') return { error: `Invalid parameter ${name}: must be given once, as a string` };
    const value = raw.trim();
    if (value.length > MAX_VALUE) return { error: `Invalid parameter ${name}: longer than ${MAX_VALUE} characters` };
    if (value !== '') values[name] = value;
  }
  const query: EnrichQuery = {};

  if (values.email !== undefined) {
    const verdict = classifySyntax(normalizeEmail(values.email));
    if (!verdict.ok) return { error: `Invalid parameter email: not a valid address (${verdict.reason})` };
    query.email = normalizeEmail(values.email);
  }
  for (const [name, length] of [
    ['sha1_email', 40],
    ['md5_email', 32],
  ] as const) {
    const hex = values[name];
    if (hex === undefined) continue;
    if (hex.length !== length || !/^[0-9a-fA-F]+$/.test(hex))
      return { error: `Invalid parameter ${name}: must be ${length} hexadecimal characters` };
    query[name === 'sha1_email' ? 'sha1' : 'md5'] = hex.toLowerCase();
  }

  if (values.zip !== undefined && values.zip4 !== undefined && values.zip !== values.zip4) {
    return { error: 'Invalid parameter zip4: give zip or zip4, not both' };
  }
  const zipName = values.zip !== undefined ? 'zip' : 'zip4';
  const zip = values.zip ?? values.zip4;
  const zipMatch = zip === undefined ? undefined : ZIP.exec(zip);
  if (zip !== undefined && !zipMatch)
    return { error: `Invalid parameter ${zipName}: must be five digits, optionally a dash and four digits` };
  if (values.state !== undefined && !isUsStateCode(values.state))
    return { error: 'Invalid parameter state: must be a two-letter US state abbreviation' };

  const hasName = values.first !== undefined || values.last !== undefined;
  const hasPostal = values.street !== undefined || values.city !== undefined || values.state !== undefined || zip !== undefined;
  // An address (or its hash) identifies the person by itself: a partial name or postal address
  // sent with it (a list with `email,first` columns) is ignored, not an error.
  const byAddress = query.email !== undefined || query.sha1 !== undefined || query.md5 !== undefined;
  if ((hasName || hasPostal) && !byAddress) {
    for (const part of ['street', 'city'] as const) {
      if (values[part] !== undefined && (values.first === undefined || values.last === undefined)) {
        return { error: `Invalid parameter ${part}: a postal address needs first and last` };
      }
    }
    if (hasName && values.first === undefined) return { error: 'Missing required parameter: first' };
    if (hasName && values.last === undefined) return { error: 'Missing required parameter: last' };
  }
  if (values.first !== undefined && values.last !== undefined) {
    query.name = { first: values.first, last: values.last, ...(values.middle ? { middle: values.middle } : {}) };
    const postal: NonNullable<EnrichQuery['postal']> = {};
    if (values.street) postal.street = values.street;
    if (values.city) postal.city = values.city;
    if (values.state) postal.state = values.state.toUpperCase();
    if (zipMatch) {
      postal.zip5 = zipMatch[1]!;
      if (zipMatch[2]) postal.plus4 = zipMatch[2];
    }
    query.postal = postal;
  }

  const p = query.postal;
  const byPostal =
    p !== undefined &&
    ((p.street !== undefined && ((p.city !== undefined && p.state !== undefined) || p.zip5 !== undefined)) || p.plus4 !== undefined);
  if (!byAddress && !byPostal) return { error: NOT_IDENTIFYING };
  if (!byPostal) {
    delete query.name;
    delete query.postal;
  }
  return { query };
}
