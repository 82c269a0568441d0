/** What metering needs from the usage store (storage/ implements it on every engine). */

/** Billable units of decisions §3. */
export const USAGE_UNITS = ['verification', 'enrichment_field', 'append_match', 'list_record'] as const;
export type UsageUnit = (typeof USAGE_UNITS)[number];

export interface UsageStore {
  /** Adds counts for one key; `day` is `YYYY-MM-DD` (UTC). */
  add(keyId: number, day: string, counts: Partial<Record<UsageUnit, number>>): Promise<void>;
  /** Totals per unit over all days. */
  totals(keyId: number): Promise<Record<UsageUnit, number>>;
}
