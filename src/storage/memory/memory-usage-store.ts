import type { UsageStore, UsageUnit } from '../../accounts/usage-store.js';
import { usageRows, zeroTotals } from '../validate.js';

export class MemoryUsageStore implements UsageStore {
  /** key id → `day unit` → count; kept per day like the SQL table, for future per-day reports. */
  private readonly counts = new Map<number, Map<string, number>>();

  async add(keyId: number, day: string, counts: Partial<Record<UsageUnit, number>>): Promise<void> {
    const rows = usageRows(day, counts);
    let perKey = this.counts.get(keyId);
    if (perKey === undefined) this.counts.set(keyId, (perKey = new Map()));
    for (const { unit, count } of rows) {
      const slot = `${day} ${unit}`;
      perKey.set(slot, (perKey.get(slot) ?? 0) + count);
    }
  }

  async totals(keyId: number): Promise<Record<UsageUnit, number>> {
    const totals = zeroTotals();
    for (const [slot, count] of this.counts.get(keyId) ?? []) {
      const unit = slot.slice(slot.indexOf(' ') + 1) as UsageUnit;
      totals[unit] += count;
    }
    return totals;
  }
}
