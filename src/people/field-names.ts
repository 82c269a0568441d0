/**
 * Names a key's field allowlist and a request's `fields` may use (decisions §5): the top-level
 * keys of the enrichment record and the `eam` sub-fields. The allowed values of each field live
 * with the enrichment catalog.
 */
export const RECORD_FIELDS = [
  'age',
  'gender',
  'zip',
  'household_income',
  'net_worth',
  'home_market_value',
  'home_owner_status',
  'length_of_residence',
  'marital_status',
  'presence_of_children',
  'education',
  'occupation',
  'rfm_offline_avg_days',
  'rfm_online_avg_days',
  'rfm_avg_dollars',
  'rfm_last_order',
  'life_stage_segment',
  'life_stage_group',
  'financial_segment',
  'financial_group',
  'interests',
  'eam',
  'postal_address',
] as const;

/** The record fields a person holds: all but `eam` (activity) and `postal_address` (the name and address), in reference order. */
export const PERSON_FIELDS: readonly string[] = RECORD_FIELDS.filter((f) => f !== 'eam' && f !== 'postal_address');

export const EAM_FIELDS = ['date_first_seen', 'longevity', 'velocity', 'popularity', 'month_last_open'] as const;

/** The sample payload's misspelling, accepted in `fields` but never emitted. */
export const FIELD_ALIASES: Readonly<Record<string, string>> = { financial_segement: 'financial_segment' };

const KNOWN = new Set<string>([...RECORD_FIELDS, ...EAM_FIELDS]);

/** The canonical name, or undefined for a name no record carries. */
export function canonicalFieldName(name: string): string | undefined {
  const canonical = FIELD_ALIASES[name] ?? name;
  return KNOWN.has(canonical) ? canonical : undefined;
}
