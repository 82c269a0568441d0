/** Lists, their committed chunks (progress, reporting and result rows) and callback attempts. */
import type { Kysely, Migration } from 'kysely';
import { engineOf } from '../database.js';

export const lists: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    const postgres = engineOf(db) === 'postgres';
    await db.schema
      .createTable('lists')
      .addColumn('id', 'integer', (col) => (postgres ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey()))
      .addColumn('key_id', 'integer', (col) => col.notNull().references('api_keys.id'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('format', 'text', (col) => col.notNull())
      .addColumn('delimiter', 'text')
      .addColumn('header', 'integer', (col) => col.notNull())
      .addColumn('email_column', 'integer')
      .addColumn('report', 'integer', (col) => col.notNull())
      .addColumn('fields', 'text')
      .addColumn('callback_url', 'text')
      .addColumn('size_bytes', 'bigint', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('error', 'text')
      .addColumn('records', 'integer', (col) => col.notNull())
      .addColumn('services', 'text', (col) => col.notNull())
      .addColumn('plan', 'text')
      .addColumn('purchase', 'text')
      // 0 or 1: set once, before the usage is added, so a resumed list is never billed twice.
      .addColumn('billed', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('lists_by_key').on('lists').columns(['key_id', 'id']).execute();
    await db.schema.createIndex('lists_by_status').on('lists').column('status').execute();

    await db.schema
      .createTable('list_chunks')
      .addColumn('list_id', 'integer', (col) => col.notNull().references('lists.id'))
      .addColumn('chunk_index', 'integer', (col) => col.notNull())
      .addColumn('records', 'integer', (col) => col.notNull())
      .addColumn('counts', 'text', (col) => col.notNull())
      .addColumn('results', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('list_chunks_pk', ['list_id', 'chunk_index'])
      .execute();

    // Which worker works on which chunk (index -1: the results file, -2: parsing), until when: lets
    // several workers share one list, and another take over a dead worker's chunks when its lease ends.
    await db.schema
      .createTable('list_chunk_claims')
      .addColumn('list_id', 'integer', (col) => col.notNull().references('lists.id'))
      .addColumn('chunk_index', 'integer', (col) => col.notNull())
      .addColumn('worker', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('list_chunk_claims_pk', ['list_id', 'chunk_index'])
      .execute();

    await db.schema
      .createTable('list_callbacks')
      .addColumn('list_id', 'integer', (col) => col.notNull().references('lists.id'))
      .addColumn('at', 'text', (col) => col.notNull())
      .addColumn('status', 'integer')
      .addColumn('error', 'text')
      .execute();
    await db.schema.createIndex('list_callbacks_by_list').on('list_callbacks').column('list_id').execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('list_callbacks').execute();
    await db.schema.dropTable('list_chunk_claims').execute();
    await db.schema.dropTable('list_chunks').execute();
    await db.schema.dropTable('lists').execute();
  },
};
