/** API keys, their daily usage, and the client-configured suppressions and exceptions. */
import { sql, type Kysely, type Migration } from 'kysely';
import { engineOf } from '../database.js';

export const accounts: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    const postgres = engineOf(db) === 'postgres';
    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'integer', (col) =>
        postgres
          ? col.primaryKey().generatedByDefaultAsIdentity()
          : // AUTOINCREMENT: an id is never reused, so usage rows can't attach to a later key.
            col.primaryKey().autoIncrement(),
      )
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('key_hash', 'text', (col) => col.notNull())
      .addColumn('key_prefix', 'text', (col) => col.notNull())
      .addColumn('webhook_secret', 'text', (col) => col.notNull())
      .addColumn('services', 'text', (col) => col.notNull())
      .addColumn('variant', 'text', (col) => col.notNull())
      .addColumn('fields', 'text')
      // BIGINT: quotas and counters may pass 2^31 over a key's life (INTEGER affinity on SQLite).
      .addColumn('quota', 'bigint')
      .addColumn('rate', 'integer', (col) => col.notNull())
      .addColumn('trial', 'integer', (col) =>
        col
          .notNull()
          .defaultTo(0)
          .check(sql`trial in (0, 1)`),
      )
      .addColumn('calls_used', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('revoked_at', 'text')
      // Named, so a violation can be told apart from the key_hash one on both engines.
      .addUniqueConstraint('api_keys_name_unique', ['name'])
      .addUniqueConstraint('api_keys_key_hash_unique', ['key_hash'])
      .execute();

    await db.schema
      .createTable('usage_daily')
      .addColumn('key_id', 'integer', (col) => col.notNull().references('api_keys.id'))
      .addColumn('day', 'text', (col) => col.notNull())
      .addColumn('unit', 'text', (col) => col.notNull())
      .addColumn('count', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('usage_daily_pk', ['key_id', 'day', 'unit'])
      .execute();

    await db.schema
      .createTable('client_list_entries')
      .addColumn('key_id', 'integer', (col) => col.notNull().references('api_keys.id'))
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('value', 'text', (col) => col.notNull())
      .addUniqueConstraint('client_list_entries_unique', ['key_id', 'kind', 'value'])
      .execute();
    // Verification looks entries up by address and by domain, whatever their kind.
    await db.schema.createIndex('client_list_entries_by_value').on('client_list_entries').columns(['key_id', 'value']).execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('client_list_entries').execute();
    await db.schema.dropTable('usage_daily').execute();
    await db.schema.dropTable('api_keys').execute();
  },
};
