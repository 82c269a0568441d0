/**
 * Argument checks shared by every engine, so a bad value fails the same way in memory, on SQLite
 * (which would store 1.5 or 'x' happily) and on PostgreSQL (which would reject it with its own
 * message).
 */
import { USAGE_UNITS, type UsageUnit } from '../accounts/usage-store.js';

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export function checkCount(what: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${what} must be a non-negative integer, got ${value}`);
  }
  return value;
}

export interface UsageRow {
  unit: UsageUnit;
  count: number;
}

/** The units with a non-zero count, validated. */
export function usageRows(day: string, counts: Partial<Record<UsageUnit, number>>): UsageRow[] {
  if (!DAY.test(day)) throw new RangeError(`usage day must be YYYY-MM-DD, got "${day}"`);
  return USAGE_UNITS.flatMap((unit) => {
    const count = counts[unit];
    if (count === undefined || checkCount(`usage count for ${unit}`, count) === 0) return [];
    return [{ unit, count }];
  });
}

export function zeroTotals(): Record<UsageUnit, number> {
  return Object.fromEntries(USAGE_UNITS.map((unit) => [unit, 0])) as Record<UsageUnit, number>;
}
