/** People (identity and enrichment fields), their emails with hashes, and email activity events. */
import type { Kysely, Migration } from 'kysely';
import { engineOf } from '../database.js';

export const people: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    const postgres = engineOf(db) === 'postgres';
    await db.schema
      .createTable('people')
      // SQLite: a plain INTEGER PRIMARY KEY (rowid alias); people are never deleted, so ids are never reused.
      .addColumn('id', 'integer', (col) => (postgres ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey()))
      .addColumn('person_key', 'text', (col) => col.notNull())
      .addColumn('first_name', 'text', (col) => col.notNull())
      .addColumn('middle_name', 'text')
      .addColumn('last_name', 'text', (col) => col.notNull())
      .addColumn('address', 'text', (col) => col.notNull())
      .addColumn('city', 'text', (col) => col.notNull())
      .addColumn('state', 'text', (col) => col.notNull())
      .addColumn('zip', 'text', (col) => col.notNull())
      .addColumn('zip5', 'text', (col) => col.notNull())
      .addColumn('first_norm', 'text', (col) => col.notNull())
      .addColumn('last_norm', 'text', (col) => col.notNull())
      .addColumn('street_norm', 'text', (col) => col.notNull())
      .addColumn('city_norm', 'text', (col) => col.notNull())
      .addColumn('fields', 'text', (col) => col.notNull())
      .addColumn('interests', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addUniqueConstraint('people_person_key_unique', ['person_key'])
      .execute();
    // The two query shapes of /v5/td: first + last + ZIP(+4), and first + last + street + city + state.
    await db.schema.createIndex('people_by_last_zip5').on('people').columns(['last_norm', 'zip5']).execute();
    await db.schema.createIndex('people_by_last_first_state').on('people').columns(['last_norm', 'first_norm', 'state']).execute();

    await db.schema
      .createTable('person_emails')
      .addColumn('email', 'text', (col) => col.primaryKey())
      .addColumn('person_id', 'integer', (col) => col.notNull().references('people.id'))
      .addColumn('position', 'integer', (col) => col.notNull())
      .addColumn('sha1', 'text', (col) => col.notNull())
      .addColumn('md5', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('person_emails_by_sha1').on('person_emails').column('sha1').execute();
    await db.schema.createIndex('person_emails_by_md5').on('person_emails').column('md5').execute();
    // Replacing a person's emails and loading them with the person both go by person_id.
    await db.schema.createIndex('person_emails_by_person').on('person_emails').column('person_id').execute();

    await db.schema
      .createTable('activity_events')
      .addColumn('email', 'text', (col) => col.notNull())
      .addColumn('source', 'text', (col) => col.notNull())
      .addColumn('seen_on', 'text', (col) => col.notNull())
      .addColumn('event', 'text', (col) => col.notNull())
      // Leads with email, so it is also the index the per-address statistics read; a second
      // index on email alone would only slow imports down.
      .addUniqueConstraint('activity_events_unique', ['email', 'source', 'seen_on', 'event'])
      .execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('activity_events').execute();
    await db.schema.dropTable('person_emails').execute();
    await db.schema.dropTable('people').execute();
  },
};
