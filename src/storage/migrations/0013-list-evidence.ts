/**
 * A list's evidence (issue 28): whether it was submitted with `evidence=true` by a key with the
 * evidence permission, and beside each committed chunk's results its rows' evidence, written in
 * the same insert (a chunk is committed with both or neither). Existing lists asked for none.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const listEvidence: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('lists')
      .addColumn('evidence', 'integer', (col) =>
        col
          .notNull()
          .defaultTo(0)
          .check(sql`evidence in (0, 1)`),
      )
      .execute();
    // JSON text, opaque to the store; null for a chunk of a list without evidence, and once retention forgot it.
    await db.schema.alterTable('list_chunks').addColumn('evidence', 'text').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('list_chunks').dropColumn('evidence').execute();
    await db.schema.alterTable('lists').dropColumn('evidence').execute();
  },
};
