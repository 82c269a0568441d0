/**
 * The people's blocking columns as identity/match/refresh-blocking.ts re-derives them: read in id
 * order, rewrite the rows that changed (few: a derivation learns a form or two), and the version
 * they were derived with (derived_versions, migration 0017).
 */
import type { Kysely } from 'kysely';
import type { BlockingColumnsStore, BlockingRow } from '../../identity/match/blocking-columns-store.js';
import type { Database } from '../database.js';

const NAME = 'people_blocking';

export function kyselyBlockingColumns(db: Kysely<Database>): BlockingColumnsStore {
  return {
    async blockingVersion() {
      const row = await db.selectFrom('derived_versions').select('version').where('name', '=', NAME).executeTakeFirst();
      return row?.version ?? 0;
    },
    async blockingRows(afterId, limit): Promise<BlockingRow[]> {
      const rows = await db
        .selectFrom('people')
        .select(['id', 'first_name', 'last_name', 'address', 'house_number', 'last_phonetic'])
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        firstName: r.first_name,
        lastName: r.last_name,
        address: r.address,
        houseNumber: r.house_number,
        lastPhonetic: r.last_phonetic,
      }));
    },
    async setBlockingColumns(rows) {
      if (rows.length === 0) return;
      await db.transaction().execute(async (trx) => {
        for (const row of rows) {
          await trx
            .updateTable('people')
            .set({ house_number: row.houseNumber, last_phonetic: row.lastPhonetic })
            .where('id', '=', row.id)
            .where('first_name', '=', row.firstName)
            .where('last_name', '=', row.lastName)
            .where('address', '=', row.address)
            .execute();
        }
      });
    },
    async setBlockingVersion(version) {
      await db
        .insertInto('derived_versions')
        .values({ name: NAME, version })
        .onConflict((oc) => oc.column('name').doUpdateSet({ version }))
        .execute();
    },
  };
}
