/**
 * Which fields a response may carry: the key's services and field allowlist, narrowed by the
 * request's `fields` (decisions §5). Unknown names in `fields` are a 400 naming them.
 */
import type { Service } from '../accounts/key-config.js';
import { canonicalFieldName, EAM_FIELDS, PERSON_FIELDS } from '../people/field-names.js';

export interface FieldSelection {
  /** Top-level record fields from the person (age … financial_group, interests). */
  record: string[];
  /** eam sub-fields to include; empty means no eam object. */
  eam: string[];
  postalAddress: boolean;
}

export function parseFieldsParam(raw: string | undefined): { fields: Set<string> | null } | { error: string } {
  if (raw === undefined || raw.trim() === '') return { fields: null };
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => canonicalFieldName(n) === undefined);
  if (unknown.length > 0) return { error: `Invalid parameter fields: unknown field ${unknown.slice(0, 5).join(', ')}` };
  return { fields: new Set(names.map((n) => canonicalFieldName(n)!)) };
}

export function selectFields(key: { services: Service[]; fields: string[] | null }, requested: Set<string> | null): FieldSelection {
  const allowedByKey = key.fields === null ? null : new Set(key.fields);
  const allowed = (field: string) => (allowedByKey === null || allowedByKey.has(field)) && (requested === null || requested.has(field));
  const eamAllowed = (sub: string) =>
    (allowedByKey === null || allowedByKey.has('eam') || allowedByKey.has(sub)) &&
    (requested === null || requested.has('eam') || requested.has(sub));
  return {
    record: key.services.includes('enrichment') ? PERSON_FIELDS.filter(allowed) : [],
    eam: key.services.includes('eam') ? EAM_FIELDS.filter(eamAllowed) : [],
    postalAddress: key.services.includes('postal_append') && allowed('postal_address'),
  };
}

export function selectsNothing(selection: FieldSelection): boolean {
  return selection.record.length === 0 && selection.eam.length === 0 && !selection.postalAddress;
}
