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

/**
 * A count of calls against a key's quota that every API process shares (scale-out: Redis,
 * storage/redis/redis-shared-quota.ts), so the check and the reservation are one step for all of
 * them; without it each process reserves on its own (usage-meter.ts).
 */
export interface SharedQuota {
  /**
   * Reserves `calls` when the key's shared count plus them stays within `quota`; true when they
   * fit (and are counted), false (nothing counted) when not. `floor` is what this process knows
   * was used (the database's count): the shared count never starts below it. Rejects when the
   * shared count cannot be reached; the caller then reserves on its own.
   */
  reserve(keyId: number, quota: number, calls: number, floor: number): Promise<boolean>;
  /** Gives back calls reserved for work that ended in an error. */
  release(keyId: number, calls: number): Promise<void>;
}
