/**
 * A list's version: every update adds one, so a transition can be written only over the very row
 * it was decided from (lists/pipeline/list-events.ts). A compare-and-set on the status alone lost
 * a purchase that landed while a worker completed the last service: both read Processed, both
 * wrote Processed, and the worker's write (no purchase seen) left the list waiting for one it had.
 * Existing lists start at 0.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const listVersion: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('lists')
      .addColumn('version', 'integer', (col) =>
        col
          .notNull()
          .defaultTo(0)
          .check(sql`version >= 0`),
      )
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('lists').dropColumn('version').execute();
  },
};
