/**
 * Each person's full enrichment record kept ready as JSON, with its field count: /v5/td answers
 * an address with that text (plus eam) instead of parsing and projecting the person's fields on
 * every request. Existing people get it here, in batches, made by 0008's frozen copy of the code the
 * import used then (frozen/0008-prepare-record.ts), so a later change to the record cannot change
 * what this migration writes.
 * An (email, person_id) index answers an address's person from the index alone, without a visit
 * to the person_emails row.
 */
import type { Kysely, Migration } from 'kysely';
import { prepareRecord0008 } from './frozen/0008-prepare-record.js';

const BATCH = 5_000;

interface Row {
  id: number;
  zip: string;
  fields: string;
  interests: string;
}

export const personRecord: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('people')
      .addColumn('record', 'text', (col) => col.notNull().defaultTo('{}'))
      .execute();
    await db.schema
      .alterTable('people')
      .addColumn('record_fields', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();

    const people = db as unknown as Kysely<{ people: Row & { record: string; record_fields: number } }>;
    let after = 0;
    for (;;) {
      const rows = await people
        .selectFrom('people')
        .select(['id', 'zip', 'fields', 'interests'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) break;
      // Already inside the migration's transaction (migrate.ts).
      for (const row of rows) {
        const record = prepareRecord0008({
          zip: row.zip,
          fields: JSON.parse(row.fields) as Partial<Record<string, string | number>>,
          interests: JSON.parse(row.interests) as string[],
        });
        await people.updateTable('people').set({ record: record.json, record_fields: record.fields }).where('id', '=', row.id).execute();
      }
      after = rows[rows.length - 1]!.id;
    }
    await db.schema.createIndex('person_emails_email_person').on('person_emails').columns(['email', 'person_id']).execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('person_emails_email_person').execute();
    await db.schema.alterTable('people').dropColumn('record_fields').execute();
    await db.schema.alterTable('people').dropColumn('record').execute();
  },
};
