/**
 * Outcome ingestion (issue 32): each key's ingestion token (hashed), ESP secrets (sealed) and
 * sharing setting; the addresses its outcomes put on its bouncers and complainers, each with the
 * time of its event and an expiry, apart from the operator's imported policy lists; the event
 * ids each key has seen (a repeated delivery changes nothing); per-domain counts of the events
 * that change no list; and, for accuracy, the last verdict per key and address (an HMAC id, never
 * the address) with the outcomes counted after verdicts by code.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const outcomes: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('outcome_keys')
      .addColumn('key_id', 'integer', (col) => col.primaryKey().references('api_keys.id'))
      .addColumn('token_hash', 'text')
      .addColumn('secrets', 'text')
      // An SNS SubscriptionConfirmation's SubscribeURL, kept for the operator to confirm (never followed on receipt).
      .addColumn('sns_subscribe_url', 'text')
      .addColumn('share', 'integer', (col) =>
        col
          .notNull()
          .defaultTo(0)
          .check(sql`share in (0, 1)`),
      )
      .addUniqueConstraint('outcome_keys_token_unique', ['token_hash'])
      .execute();

    await db.schema
      .createTable('outcome_entries')
      .addColumn('key_id', 'integer', (col) => col.notNull().references('api_keys.id'))
      .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('bouncer', 'complainer')`))
      .addColumn('value', 'text', (col) => col.notNull())
      .addColumn('shared', 'integer', (col) => col.notNull().check(sql`shared in (0, 1)`))
      .addColumn('event_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('outcome_entries_pk', ['key_id', 'kind', 'value'])
      .execute();
    // Verification asks by address, whatever the key (shared entries count across keys).
    await db.schema.createIndex('outcome_entries_by_value').on('outcome_entries').column('value').execute();
    await db.schema.createIndex('outcome_entries_by_expiry').on('outcome_entries').column('expires_at').execute();

    await db.schema
      .createTable('outcome_events_seen')
      .addColumn('key_id', 'integer', (col) => col.notNull().references('api_keys.id'))
      .addColumn('event_id', 'text', (col) => col.notNull())
      .addColumn('seen_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('outcome_events_seen_pk', ['key_id', 'event_id'])
      .execute();
    await db.schema.createIndex('outcome_events_seen_by_time').on('outcome_events_seen').column('seen_at').execute();

    await db.schema
      .createTable('outcome_domain_counts')
      .addColumn('key_id', 'integer', (col) => col.notNull().references('api_keys.id'))
      .addColumn('domain', 'text', (col) => col.notNull())
      .addColumn('day', 'text', (col) => col.notNull())
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('count', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('outcome_domain_counts_pk', ['key_id', 'domain', 'day', 'kind'])
      .execute();

    await db.schema
      .createTable('outcome_accuracy')
      .addColumn('key_id', 'integer', (col) => col.notNull().references('api_keys.id'))
      .addColumn('day', 'text', (col) => col.notNull())
      .addColumn('code', 'integer', (col) => col.notNull())
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('source', 'text', (col) => col.notNull())
      .addColumn('count', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('outcome_accuracy_pk', ['key_id', 'day', 'code', 'kind', 'source'])
      .execute();

    await db.schema
      .createTable('verdict_records')
      .addColumn('key_id', 'integer', (col) => col.notNull().references('api_keys.id'))
      .addColumn('id', 'text', (col) => col.notNull())
      .addColumn('code', 'integer', (col) => col.notNull())
      .addColumn('at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('verdict_records_pk', ['key_id', 'id'])
      .execute();
    await db.schema.createIndex('verdict_records_by_time').on('verdict_records').column('at').execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    for (const table of [
      'verdict_records',
      'outcome_accuracy',
      'outcome_domain_counts',
      'outcome_events_seen',
      'outcome_entries',
      'outcome_keys',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
