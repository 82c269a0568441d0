import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { USAGE_UNITS, type UsageStore, type UsageUnit } from '../../accounts/usage-store.js';
import { usageRows, zeroTotals } from '../validate.js';

export class KyselyUsageStore implements UsageStore {
  constructor(private readonly db: Kysely<Database>) {}

  async add(keyId: number, day: string, counts: Partial<Record<UsageUnit, number>>): Promise<void> {
    const rows = usageRows(day, counts).map(({ unit, count }) => ({ key_id: keyId, day, unit, count }));
    if (rows.length === 0) return;
    // An upsert adds in the database, so concurrent requests never overwrite each other's counts.
    await this.db
      .insertInto('usage_daily')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['key_id', 'day', 'unit']).doUpdateSet((eb) => ({ count: eb('usage_daily.count', '+', eb.ref('excluded.count')) })),
      )
      .execute();
  }

  async totals(keyId: number): Promise<Record<UsageUnit, number>> {
    const rows = await this.db
      .selectFrom('usage_daily')
      // sum(bigint) is NUMERIC on PostgreSQL, which pg hands back as a string; cast keeps it a number.
      .select((eb) => ['unit', eb.cast<number>(eb.fn.sum('count'), 'bigint').as('total')])
      .where('key_id', '=', keyId)
      .groupBy('unit')
      .execute();
    const totals = zeroTotals();
    for (const { unit, total } of rows) {
      // A unit a newer release added is kept out of the shape this release promises.
      if ((USAGE_UNITS as readonly string[]).includes(unit)) totals[unit as UsageUnit] = Number(total);
    }
    return totals;
  }
}
