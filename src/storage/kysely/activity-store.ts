import { CompiledQuery, type Kysely } from 'kysely';
import type { ActivityStats } from '../../people/person.js';
import { chunks, LOOKUP_CHUNK } from '../chunks.js';
import type { Database } from '../database.js';
import { noActivity, type ActivityBatch, type ActivityStore, type ActivityWindows } from '../../people/activity-store.js';
import { rawReader, type RawRead } from './raw-read.js';

/** 4 columns a row. */
const EVENT_ROWS = 2_000;

export class KyselyActivityStore implements ActivityStore {
  private readonly read: RawRead;

  constructor(private readonly db: Kysely<Database>) {
    this.read = rawReader(db);
  }

  async hasAny(): Promise<boolean> {
    return (await this.db.selectFrom('activity_events').select('email').limit(1).executeTakeFirst()) !== undefined;
  }

  async add(batch: ActivityBatch, marks: { demo?: boolean } = {}): Promise<number> {
    const demo = marks.demo ? 1 : 0;
    const unique = batch.events;
    if (unique.length === 0) return 0;
    return this.db.transaction().execute(async (trx) => {
      let added = 0;
      for (const batch of chunks(unique, EVENT_ROWS)) {
        // RETURNING lists only the rows actually inserted, on both engines.
        const inserted = await trx
          .insertInto('activity_events')
          .values(batch.map((e) => ({ email: e.email, source: e.source, seen_on: e.seenOn, event: e.event, demo, mailbox: e.mailbox })))
          .onConflict((oc) => {
            const same = oc.columns(['email', 'source', 'seen_on', 'event']);
            // The operator's own event that a demo one had already stored becomes theirs: `demo remove` leaves it.
            return demo ? same.doNothing() : same.doUpdateSet({ demo: 0 }).where('activity_events.demo', '=', 1);
          })
          .returning('email')
          .execute();
        added += inserted.length;
      }
      return added;
    });
  }

  statsFor(emails: string[], windows: ActivityWindows): Promise<Map<string, ActivityStats>> {
    return this.stats('email', emails, windows);
  }

  statsForMailboxes(mailboxes: string[], windows: ActivityWindows): Promise<Map<string, ActivityStats>> {
    return this.stats('mailbox', mailboxes, windows);
  }

  private async stats(by: 'email' | 'mailbox', values: string[], windows: ActivityWindows): Promise<Map<string, ActivityStats>> {
    const unique = [...new Set(values)];
    const stats = new Map(unique.map((value) => [value, noActivity()]));
    const { since6m, since12m } = windows;
    for (const chunk of chunks(unique, LOOKUP_CHUNK)) {
      const query = this.statsQueryFor(by, since6m, since12m, chunk);
      const rows = await this.read<StatsRow>(query.sql, query.parameters);
      for (const row of rows) {
        stats.set(row.value, {
          firstSeen: row.first_seen,
          events6m: Number(row.events6m),
          sources12m: Number(row.sources12m),
          lastOpen12m: row.last_open ?? null,
        });
      }
    }
    return stats;
  }

  /**
   * The statistics query for a chunk length, compiled once (kysely's compilation costs about as
   * much as the indexed lookup): its SQL never changes, and its parameters are the query's own
   * values (the windows, the event name) followed by the chunk's addresses, in order.
   */
  private statsQueryFor(by: 'email' | 'mailbox', since6m: string, since12m: string, chunk: readonly string[]): CompiledQuery<StatsRow> {
    const shape = `${by}:${chunk.length}`;
    let sql = this.compiled.get(shape);
    const leading = [since6m, since12m, 'open', since12m];
    if (sql === undefined) {
      const compiled = this.statsQuery(by, since6m, since12m, chunk).compile();
      const expected = [...leading, ...chunk];
      // Guard the assumption above.
      if (compiled.parameters.length !== expected.length || compiled.parameters.some((p, i) => p !== expected[i])) {
        throw new Error('activity statistics query has unexpected parameters');
      }
      sql = compiled.sql;
      this.compiled.set(shape, sql);
    }
    return CompiledQuery.raw(sql, [...leading, ...chunk]) as CompiledQuery<StatsRow>;
  }

  private readonly compiled = new Map<string, string>();

  private statsQuery(by: 'email' | 'mailbox', since6m: string, since12m: string, chunk: readonly string[]) {
    return this.db
      .selectFrom('activity_events')
      .select((eb) => [
        eb.ref(by).as('value'),
        eb.fn.min('seen_on').as('first_seen'),
        // A literal THEN: PostgreSQL can't type a bare parameter there.
        eb.fn.count(eb.case().when('seen_on', '>=', since6m).then(eb.lit(1)).end()).as('events6m'),
        eb.fn
          .count(eb.case().when('seen_on', '>=', since12m).then(eb.ref('source')).end())
          .distinct()
          .as('sources12m'),
        eb.fn
          .max(
            eb
              .case()
              .when(eb.and([eb('event', '=', 'open'), eb('seen_on', '>=', since12m)]))
              .then(eb.ref('seen_on'))
              .end(),
          )
          .as('last_open'),
      ])
      .where(by, 'in', chunk)
      .groupBy(by);
  }
}

interface StatsRow {
  /** The address or mailbox key the row is for. */
  value: string;
  first_seen: string | null;
  events6m: number | string;
  sources12m: number | string;
  last_open: string | null;
}
