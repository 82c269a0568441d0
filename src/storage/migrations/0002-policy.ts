/** Shared policy lists: spam traps, complainers, opt-outs, do-not-email and bouncers. */
import type { Kysely, Migration } from 'kysely';

export const policy: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('policy_entries')
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('value', 'text', (col) => col.notNull())
      .addUniqueConstraint('policy_entries_unique', ['kind', 'value'])
      .execute();
    // Verification asks by address and by domain, whatever the kind.
    await db.schema.createIndex('policy_entries_by_value').on('policy_entries').column('value').execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('policy_entries').execute();
  },
};
