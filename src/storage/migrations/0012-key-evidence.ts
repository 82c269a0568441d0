/**
 * A key's evidence permission (issue 28): may it ask for the evidence behind a verdict
 * (`explain=true`)? Off for every existing key: SMTP replies and DNS answers are shown only to
 * keys an operator granted them to.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const keyEvidence: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('api_keys')
      .addColumn('evidence', 'integer', (col) =>
        col
          .notNull()
          .defaultTo(0)
          .check(sql`evidence in (0, 1)`),
      )
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('api_keys').dropColumn('evidence').execute();
  },
};
