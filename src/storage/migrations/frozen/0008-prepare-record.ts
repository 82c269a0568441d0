/**
 * Migration 0008's own copy of `prepareRecord` (people/prepared-record.ts) as it was when 0008
 * was written: what 0008 writes for an existing person must not change when the live code does.
 * A later change to the record's form comes with a migration of its own that rewrites the column.
 * Frozen: never edit this file.
 */

/** The reference's person fields, in order, as of 0008. */
const PERSON_FIELDS_0008 = [
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
] as const;

export function prepareRecord0008(person: {
  zip: string;
  fields: Partial<Record<string, string | number>>;
  interests: readonly string[];
}): { json: string; fields: number } {
  const out: Record<string, unknown> = {};
  for (const field of PERSON_FIELDS_0008) {
    if (field === 'interests') {
      if (person.interests.length > 0) out.interests = Object.fromEntries(person.interests.map((i) => [i, true]));
    } else if (field === 'zip') {
      if (person.zip) out.zip = person.zip.slice(0, 5);
    } else {
      const value = person.fields[field];
      if (value !== undefined && value !== null && value !== '') out[field] = value;
    }
  }
  return { json: JSON.stringify(out), fields: Object.keys(out).length };
}
