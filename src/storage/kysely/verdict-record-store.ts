import type { Kysely } from 'kysely';
import type { VerdictRecord, VerdictRecordStore } from '../../outcomes/verdict-record-store.js';
import { chunks, LOOKUP_CHUNK } from '../chunks.js';
import type { Database } from '../database.js';
import { sqliteHandleOf } from '../sqlite/open-sqlite.js';

const BATCH_ROWS = 1_000;
const FIND_SQLITE = 'select id, code, at from verdict_records where key_id = ? and id in (select value from json_each(?))';

export class KyselyVerdictRecordStore implements VerdictRecordStore {
  constructor(private readonly db: Kysely<Database>) {}

  async record(records: VerdictRecord[]): Promise<void> {
    // The last of one key and id wins; one statement may not name a row twice on PostgreSQL.
    const unique = [...new Map(records.map((r) => [`${r.keyId}\u0000${r.id}`, r])).values()];
    for (let start = 0; start < unique.length; start += BATCH_ROWS) {
      await this.db
        .insertInto('verdict_records')
        .values(unique.slice(start, start + BATCH_ROWS).map((r) => ({ key_id: r.keyId, id: r.id, code: r.code, at: r.at })))
        .onConflict((oc) =>
          oc.columns(['key_id', 'id']).doUpdateSet((eb) => ({ code: eb.ref('excluded.code'), at: eb.ref('excluded.at') })),
        )
        .execute();
    }
  }

  async find(keyId: number, ids: string[]): Promise<VerdictRecord[]> {
    const sqlite = sqliteHandleOf(this.db);
    if (sqlite && !sqlite.inTransaction) {
      // One statement of one shape for any number of ids (kysely's IN list is a new SQL text, compiled
      // and prepared, per count), run on the connection directly: ingestion asks once per webhook body.
      const rows = sqlite.prepare(FIND_SQLITE).all(keyId, JSON.stringify(ids)) as { id: string; code: number; at: string }[];
      return rows.map((row) => ({ keyId, id: row.id, code: row.code, at: row.at }));
    }
    const found: VerdictRecord[] = [];
    for (const batch of chunks([...new Set(ids)], LOOKUP_CHUNK)) {
      const rows = await this.db
        .selectFrom('verdict_records')
        .select(['id', 'code', 'at'])
        .where('key_id', '=', keyId)
        .where('id', 'in', batch)
        .execute();
      for (const row of rows) found.push({ keyId, id: row.id, code: row.code, at: row.at });
    }
    return found;
  }

  async prune(before: string): Promise<number> {
    const result = await this.db.deleteFrom('verdict_records').where('at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
