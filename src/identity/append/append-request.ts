/**
 * One /v5/eppend request (single or a bulk element), parsed: email for a postal append, first +
 * last + postal address for an email append, both when both are sent (decisions §5). The value
 * rules and their messages are /v5/td's; an email append's address must also be a real US one:
 * the ZIP exists and agrees with the state and city given (postal/zip-reference.ts).
 */
import { NOT_IDENTIFYING, parseEnrichQuery, type EnrichQuery } from '../../enrichment/enrich-query.js';
import { checkPostal } from '../postal/index.js';

export interface AppendRequest {
  query: EnrichQuery;
  emailAppend: boolean;
  postalAppend: boolean;
}

export const NOT_ENOUGH_TO_APPEND =
  'Not enough to match a person: give email for a postal append, or first and last with a postal address (street with city and state or a ZIP, or a ZIP+4) for an email append';

const PARAMS = ['email', 'first', 'middle', 'last', 'street', 'city', 'state', 'zip', 'zip4'] as const;

export function parseAppendRequest(params: Record<string, unknown>): { request: AppendRequest } | { error: string } {
  const picked: Record<string, unknown> = {};
  for (const name of PARAMS) if (params[name] !== undefined) picked[name] = params[name];
  const parsed = parseEnrichQuery(picked);
  if ('error' in parsed) return { error: parsed.error === NOT_IDENTIFYING ? NOT_ENOUGH_TO_APPEND : parsed.error };
  const query = parsed.query;
  const emailAppend = query.name !== undefined && query.postal !== undefined;
  if (emailAppend) {
    const p = query.postal!;
    const checked = checkPostal({
      ...(p.zip5 ? { zip: p.plus4 ? `${p.zip5}-${p.plus4}` : p.zip5 } : {}),
      ...(p.city ? { city: p.city } : {}),
      ...(p.state ? { state: p.state } : {}),
    });
    if (!checked.ok) return { error: checked.reason };
  }
  return { request: { query, emailAppend, postalAppend: query.email !== undefined } };
}
