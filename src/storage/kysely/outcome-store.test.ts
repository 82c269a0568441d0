import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../migrations/migrate.js';
import { openSqlite } from '../sqlite/open-sqlite.js';
import { KyselyOutcomeStore } from './outcome-store.js';

const NOW = '2026-03-01T00:00:00.000Z';

describe('kysely outcome store on SQLite', () => {
  it('never writes into a kysely transaction left open on the connection: it waits for it, and a rollback there keeps its events', async () => {
    const db = openSqlite({ file: ':memory:' });
    await migrateToLatest(db);
    // Key 1 need not exist: the key table is not this test's subject.
    await sql`pragma foreign_keys = off`.execute(db);
    const outcomes = new KyselyOutcomeStore(db);
    let applying: Promise<unknown> | undefined;
    await db
      .transaction()
      .execute(async (trx) => {
        await sql`select 1`.execute(trx);
        // Started while the other transaction holds the connection (not awaited here: it waits for it).
        applying = outcomes.apply(1, [{ eventId: 'e1', domainCount: { domain: 'a.com', day: '2026-02-01', kind: 'blocked' } }], NOW);
        await new Promise((resolve) => setTimeout(resolve, 10));
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await applying).toEqual({ applied: 1, repeated: 0 });
    expect(await outcomes.domainCounts(1, '2026-01-01')).toEqual([{ domain: 'a.com', day: '2026-02-01', kind: 'blocked', count: 1 }]);
    await db.destroy();
  });
});
