/** The per-key bouncer-list feature (code 520 is optional, decisions §2). */
import { sql, type Kysely, type Migration } from 'kysely';

export const keyBouncers: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('api_keys')
      .addColumn('bouncers', 'integer', (col) =>
        col
          .notNull()
          .defaultTo(0)
          .check(sql`bouncers in (0, 1)`),
      )
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('api_keys').dropColumn('bouncers').execute();
  },
};
