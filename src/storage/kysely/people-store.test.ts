import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { sha1Hex } from '../../people/email-hash.js';
import { newPerson, peopleBatch } from '../contract/people-fixtures.js';
import type { Database } from '../database.js';
import { migrateToLatest } from '../migrations/migrate.js';
import { KyselyActivityStore } from './activity-store.js';
import { KyselyPeopleStore } from './people-store.js';
import { prepareActivity } from '../../people/activity-rules.js';

/** Counts statements, to hold the stores to one round trip per chunk rather than one per record. */
async function counted() {
  const seen = { queries: 0 };
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }),
    log: (event) => void (event.level === 'query' && (seen.queries += 1)),
  });
  await migrateToLatest(db);
  seen.queries = 0;
  return { db, seen };
}

describe('kysely people and activity stores batch their statements', () => {
  it('looks 1,200 identifiers up in three statements per kind', async () => {
    const { db, seen } = await counted();
    const people = new KyselyPeopleStore(db);
    const all = Array.from({ length: 1_200 }, (_, i) => newPerson(`p${i}`, { emails: [`p${i}@example.com`, `p${i}@example.org`] }));
    await people.upsert(peopleBatch(all));
    // begin, 3 key lookups, 3 people upserts, 2 email inserts (2,400 rows at 2,000 a statement), commit
    expect(seen.queries).toBe(10);
    seen.queries = 0;
    expect((await people.findManyByEmail(all.map((p) => p.emails[0]!))).size).toBe(1_200);
    expect(seen.queries).toBe(3);
    seen.queries = 0;
    expect((await people.findManyBySha1(all.map((p) => sha1Hex(p.emails[1]!)))).size).toBe(1_200);
    expect(seen.queries).toBe(3);
    await db.destroy();
  });

  it('computes stats for 1,200 addresses in three aggregate statements', async () => {
    const { db, seen } = await counted();
    const activity = new KyselyActivityStore(db);
    const emails = Array.from({ length: 1_200 }, (_, i) => `u${i}@example.com`);
    await activity.add(prepareActivity(emails.map((email) => ({ email, source: 's', seenOn: '2024-01-01', event: 'open' as const }))));
    seen.queries = 0;
    expect((await activity.statsFor(emails, { since6m: '2023-12-01', since12m: '2023-06-01' })).size).toBe(1_200);
    expect(seen.queries).toBe(3);
    await db.destroy();
  });
});
