/** The demo marks of migration 0011: `mailsure demo remove` deletes exactly the marked rows. */
import type { Kysely } from 'kysely';
import { chunks, LOOKUP_CHUNK } from '../chunks.js';
import type { Database } from '../database.js';
import type { DemoRemoval, DemoStore } from '../interfaces.js';

/** A key's rows of outcome ingestion (migration 0015), which go with it. */
const OUTCOME_TABLES = [
  'outcome_keys',
  'outcome_entries',
  'outcome_events_seen',
  'outcome_domain_counts',
  'outcome_accuracy',
  'verdict_records',
] as const;

export class KyselyDemoStore implements DemoStore {
  constructor(private readonly db: Kysely<Database>) {}

  remove(): Promise<DemoRemoval> {
    return this.db.transaction().execute(async (trx) => {
      const keyIds = (await trx.selectFrom('api_keys').select('id').where('demo', '=', 1).execute()).map((r) => r.id);
      const listIds: number[] = [];
      for (const batch of chunks(keyIds, LOOKUP_CHUNK)) {
        for (const { id } of await trx.selectFrom('lists').select('id').where('key_id', 'in', batch).execute()) listIds.push(id);
      }
      // Children before parents: the foreign keys hold on both engines.
      for (const batch of chunks(listIds, LOOKUP_CHUNK)) {
        await trx.deleteFrom('list_callbacks').where('list_id', 'in', batch).execute();
        await trx.deleteFrom('list_chunk_claims').where('list_id', 'in', batch).execute();
        await trx.deleteFrom('list_chunks').where('list_id', 'in', batch).execute();
        await trx.deleteFrom('lists').where('id', 'in', batch).execute();
      }
      for (const batch of chunks(keyIds, LOOKUP_CHUNK)) {
        await trx.deleteFrom('usage_daily').where('key_id', 'in', batch).execute();
        await trx.deleteFrom('client_list_entries').where('key_id', 'in', batch).execute();
        for (const table of OUTCOME_TABLES) await trx.deleteFrom(table).where('key_id', 'in', batch).execute();
        await trx.deleteFrom('api_keys').where('id', 'in', batch).execute();
      }
      await trx
        .deleteFrom('person_emails')
        .where('person_id', 'in', (eb) => eb.selectFrom('people').select('id').where('demo', '=', 1))
        .execute();
      const people = await trx.deleteFrom('people').where('demo', '=', 1).executeTakeFirst();
      const events = await trx.deleteFrom('activity_events').where('demo', '=', 1).executeTakeFirst();
      return { keys: keyIds.length, people: Number(people.numDeletedRows), activityEvents: Number(events.numDeletedRows), listIds };
    });
  }
}
