/**
 * A key's own records-a-second limit (issue 26): the rate counts calls, a bulk call as one, so an
 * operator who wants to bound records sets this; null (every existing key) means off.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const keyRecordRate: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('api_keys')
      .addColumn('record_rate', 'integer', (col) => col.check(sql`record_rate is null or record_rate > 0`))
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('api_keys').dropColumn('record_rate').execute();
  },
};
