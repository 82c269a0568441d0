/**
 * Demo marks (decisions §2, MAILSURE_DEMO): the demo key, the demo people and their activity
 * events carry `demo = 1`, so `mailsure demo remove` deletes exactly them and nothing of the
 * operator's. What an earlier version made at its first start is marked here, as far as it can
 * be told apart from real data:
 *
 * - the key named `demo`: the first start gave the demo key that name, and an operator's own key
 *   of that name would have stopped it from being made;
 * - people whose `person_key` is one the demo generator gives (`P0000001` to `P0001000`) and whose
 *   name, postal address and fields are the generator's (seed `demo`) for the day they were
 *   loaded (their `updated_at`, or the day before for a load that crossed midnight). An import of
 *   `mailsure generate` output reuses those ids but has other people, and a person re-imported
 *   since holds the operator's data: neither is marked;
 * - the activity events of those people's addresses that the generator made for that day (each
 *   address of a person by its place in their list, as the demo loaded them).
 *
 * The generator's dataset, as those versions loaded it, is this migration's frozen copy
 * (frozen/0011-demo-dataset.ts): a later change to the live generator does not change what 0011
 * recognises.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { chunks, LOOKUP_CHUNK } from '../chunks.js';
import { DEMO_PEOPLE_0011, demoDay0011 } from './frozen/0011-demo-dataset.js';

interface Tables {
  api_keys: { name: string; demo: number };
  people: {
    id: number;
    person_key: string;
    first_name: string;
    last_name: string;
    address: string;
    zip: string;
    fields: string;
    updated_at: string;
    demo: number;
  };
  person_emails: { email: string; person_id: number; position: number };
  activity_events: { email: string; source: string; seen_on: string; event: string; demo: number };
}

const DAY_MS = 86_400_000;

export const demoMarks: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const table of ['api_keys', 'people', 'activity_events']) {
      await db.schema
        .alterTable(table)
        .addColumn('demo', 'integer', (col) =>
          col
            .notNull()
            .defaultTo(0)
            .check(sql`demo in (0, 1)`),
        )
        .execute();
    }
    const t = db as unknown as Kysely<Tables>;
    await t.updateTable('api_keys').set({ demo: 1 }).where('name', '=', 'demo').execute();
    await markEarlierDemoPeople(t);
  },

  async down(db: Kysely<unknown>): Promise<void> {
    for (const table of ['activity_events', 'people', 'api_keys']) await db.schema.alterTable(table).dropColumn('demo').execute();
  },
};

async function markEarlierDemoPeople(db: Kysely<Tables>): Promise<void> {
  const candidates = await db
    .selectFrom('people')
    .select(['id', 'person_key', 'first_name', 'last_name', 'address', 'zip', 'fields', 'updated_at'])
    .where('person_key', '>=', demoPersonKey(1))
    .where('person_key', '<=', demoPersonKey(DEMO_PEOPLE_0011))
    .execute();
  if (candidates.length === 0) return;
  // By the day the demo was loaded: ages, order dates and activity depend on it. The rows carry
  // the moment they were stored; a load that crossed midnight ran the generator the day before.
  const byStoredDay = new Map<string, typeof candidates>();
  for (const row of candidates) {
    const day = row.updated_at.slice(0, 10);
    if (Number.isNaN(Date.parse(day))) continue;
    byStoredDay.set(day, [...(byStoredDay.get(day) ?? []), row]);
  }
  const byDay = new Map<string, number[]>();
  for (const [stored, rows] of byStoredDay) {
    const before = new Date(Date.parse(stored) - DAY_MS).toISOString().slice(0, 10);
    const [day, ids] = [stored, before]
      .map((d) => {
        const demo = demoDay0011(d);
        return [d, rows.filter((row) => demo.isDemoPerson(row.person_key, row)).map((row) => row.id)] as const;
      })
      .reduce((best, next) => (next[1].length > best[1].length ? next : best));
    if (ids.length > 0) byDay.set(day, [...(byDay.get(day) ?? []), ...ids]);
  }
  for (const [day, ids] of byDay) {
    const demo = demoDay0011(day);
    for (const batch of chunks(ids, LOOKUP_CHUNK)) {
      await db.updateTable('people').set({ demo: 1 }).where('id', 'in', batch).execute();
      const addresses = await db
        .selectFrom('person_emails')
        .innerJoin('people', 'people.id', 'person_emails.person_id')
        .select(['person_emails.email', 'person_emails.position', 'people.person_key'])
        .where('person_emails.person_id', 'in', batch)
        .execute();
      // Already inside the migration's transaction (migrate.ts); only the generator's own events.
      for (const { email, position, person_key } of addresses) {
        for (const e of demo.events(person_key, position)) {
          await db
            .updateTable('activity_events')
            .set({ demo: 1 })
            .where('email', '=', email)
            .where('source', '=', e.source)
            .where('seen_on', '=', e.seenOn)
            .where('event', '=', e.event)
            .execute();
        }
      }
    }
  }
}

/** The generator's `person_id` of its n-th person (generate/people.ts). */
function demoPersonKey(n: number): string {
  return `P${String(n).padStart(7, '0')}`;
}
