/**
 * Identity matching's blocking columns (identity/match/blocking.ts): the house number and the
 * last name's phonetic code, indexed with the ZIP5 or state they block with. Existing people get
 * them here, in batches, computed by this migration's frozen copy of the code the import used
 * (frozen/0005-blocking.ts).
 */
import type { Kysely, Migration } from 'kysely';
import { personBlockingColumns0005 } from './frozen/0005-blocking.js';

const BATCH = 5_000;

interface Row {
  id: number;
  first_name: string;
  last_name: string;
  address: string;
}

export const identityBlocking: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('people')
      .addColumn('house_number', 'text', (col) => col.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('people')
      .addColumn('last_phonetic', 'text', (col) => col.notNull().defaultTo(''))
      .execute();

    const people = db as unknown as Kysely<{ people: Row & { house_number: string; last_phonetic: string } }>;
    let after = 0;
    for (;;) {
      const rows = await people
        .selectFrom('people')
        .select(['id', 'first_name', 'last_name', 'address'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) break;
      for (const row of rows) {
        const columns = personBlockingColumns0005({ firstName: row.first_name, lastName: row.last_name, address: row.address });
        await people
          .updateTable('people')
          .set({ house_number: columns.houseNumber, last_phonetic: columns.lastPhonetic })
          .where('id', '=', row.id)
          .execute();
      }
      after = rows[rows.length - 1]!.id;
    }

    await db.schema.createIndex('people_by_zip5_house').on('people').columns(['zip5', 'house_number']).execute();
    await db.schema.createIndex('people_by_phonetic_zip5').on('people').columns(['last_phonetic', 'zip5']).execute();
    await db.schema.createIndex('people_by_state_house').on('people').columns(['state', 'house_number']).execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('people_by_state_house').execute();
    await db.schema.dropIndex('people_by_phonetic_zip5').execute();
    await db.schema.dropIndex('people_by_zip5_house').execute();
    await db.schema.alterTable('people').dropColumn('last_phonetic').execute();
    await db.schema.alterTable('people').dropColumn('house_number').execute();
  },
};
