import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Migration } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgres } from '../postgres/open-postgres.js';
import { openSqlite } from '../sqlite/open-sqlite.js';
import type { ActivityEvent } from '../../people/person.js';
import { demoDataset } from '../../generate/demo-dataset.js';
import type { Database } from '../database.js';
import { personRow } from '../kysely/person-row.js';
import { peopleBatch } from '../contract/people-fixtures.js';
import { MIGRATIONS } from './index.js';
import { migrateToLatest } from './migrate.js';

const names = Object.keys(MIGRATIONS);
/** How many migrations a database of an earlier version may have applied: none to all but the newest. */
const earlier = names.map((_, k) => k);

const broken: Record<string, Migration> = {
  '0001-made': {
    up: async (db: Kysely<unknown>) => {
      await db.schema.createTable('made').addColumn('id', 'integer').execute();
    },
  },
  '0002-broken': {
    up: async (db: Kysely<unknown>) => {
      await sql`select * from no_such_table`.execute(db);
    },
  },
};

async function applied<DB>(db: Kysely<DB>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((r) => r.name);
}

/**
 * A database left after the first `k` migrations, holding a key, a person with an address and an
 * activity event in the shape of its day, upgrades to the newest; the person gets blocking
 * columns from 0005 (its frozen copy) and a ready record from 0008 when stored before them.
 */
async function upgradesFrom(k: number, open: () => Promise<Kysely<Database>>): Promise<void> {
  const db = await open();
  try {
    await migrateToLatest(db, Object.fromEntries(Object.entries(MIGRATIONS).slice(0, k)));
    const old = db as unknown as Kysely<{
      api_keys: ReturnType<typeof row>;
      people: Record<string, unknown>;
      person_emails: Record<string, unknown>;
      activity_events: Record<string, unknown>;
    }>;
    if (k >= 1) await old.insertInto('api_keys').values(row('alpha')).execute();
    if (k >= 4) {
      const { id } = await old
        .insertInto('people')
        .values({
          person_key: 'X1',
          first_name: 'Ana',
          middle_name: null,
          last_name: 'De La Cruz',
          address: '12 North Main Street Apt 4',
          city: 'Austin',
          state: 'TX',
          zip: '78701-1234',
          zip5: '78701',
          first_norm: 'ana',
          last_norm: 'delacruz',
          street_norm: '12 N MAIN ST APT 4',
          city_norm: 'AUSTIN',
          fields: JSON.stringify({ age: '25-34' }),
          interests: '[]',
          updated_at: '2026-01-02T03:04:05.000Z',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // From 0014 on, the import writes each address's mailbox key itself.
      const mailbox = (key: string | null) => (k >= 14 ? { mailbox: key } : {});
      await old
        .insertInto('person_emails')
        .values({ email: 'ana@example.com', person_id: id, position: 0, sha1: 's', md5: 'm', ...mailbox(null) })
        .execute();
      await old
        .insertInto('person_emails')
        .values({ email: 'ana.cruz+x@googlemail.com', person_id: id, position: 1, sha1: 's2', md5: 'm2', ...mailbox('anacruz@gmail.com') })
        .execute();
      await old
        .insertInto('activity_events')
        .values({ email: 'ana@example.com', source: 'crm', seen_on: '2026-01-01', event: 'open' })
        .execute();
    }
    await migrateToLatest(db);
    expect(await applied(db), `from ${k} migrations`).toEqual(names);
    expect(await db.selectFrom('api_keys').select('name').execute()).toEqual(k >= 1 ? [{ name: 'alpha' }] : []);
    const people = await db.selectFrom('people').select(['house_number', 'last_phonetic', 'record', 'demo']).execute();
    expect(people, `from ${k} migrations`).toEqual(
      k >= 4
        ? [
            {
              house_number: k < 5 ? '12' : '',
              last_phonetic: k < 5 ? 'TLKR' : '',
              record: k < 8 ? '{"age":"25-34","zip":"78701"}' : '{}',
              demo: 0,
            },
          ]
        : [],
    );
    expect(await db.selectFrom('activity_events').select(['email', 'demo', 'mailbox']).execute()).toEqual(
      k >= 4 ? [{ email: 'ana@example.com', demo: 0, mailbox: null }] : [],
    );
    // 0014 gives stored addresses their mailbox key where the domain has one (later, the import does).
    expect(await db.selectFrom('person_emails').select(['email', 'mailbox']).orderBy('position').execute()).toEqual(
      k >= 4
        ? [
            { email: 'ana@example.com', mailbox: null },
            { email: 'ana.cruz+x@googlemail.com', mailbox: 'anacruz@gmail.com' },
          ]
        : [],
    );
  } finally {
    await db.destroy();
  }
}

/** An in-memory database migrated up to (not including) `before`, holding one key's list (id 1) in `status`. */
async function withOldList(before: string, status: string) {
  const db = openSqlite({ file: ':memory:' });
  await migrateToLatest(db, Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < before)));
  const { id: keyId } = await db.insertInto('api_keys').values(row('old')).returning('id').executeTakeFirstOrThrow();
  const old = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const list = { key_id: keyId, name: 'a.csv', format: 'csv', header: 1, report: 0, size_bytes: 1, status };
  await old
    .insertInto('lists')
    .values({ ...list, records: 1, services: '{}', created_at: 'now', updated_at: 'now' })
    .execute();
  return { db, old };
}

describe('migrations on SQLite', () => {
  it('are named in run order', () => {
    expect(names).toEqual([...names].sort());
    expect(names[0]).toBe('0001-accounts');
  });

  it('run once; running again is harmless', async () => {
    const db = openSqlite({ file: ':memory:' });
    await migrateToLatest(db);
    await db.insertInto('api_keys').values(row('alpha')).execute();
    await migrateToLatest(db);
    expect(await applied(db)).toEqual(names);
    expect(await db.selectFrom('api_keys').select('name').execute()).toEqual([{ name: 'alpha' }]);
    await db.destroy();
  });

  it.each(earlier)('upgrade a database left after %i migrations', async (k) => {
    await upgradesFrom(k, async () => openSqlite({ file: ':memory:' }));
  });

  it('give people stored before 0008 their ready record', async () => {
    const db = openSqlite({ file: ':memory:' });
    const before = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0008'));
    await migrateToLatest(db, before);
    const people = db as unknown as Kysely<{ people: Record<string, unknown> }>;
    const person = {
      first_name: 'Jane',
      middle_name: null,
      last_name: 'Doe',
      address: '1 Main St',
      city: 'Austin',
      state: 'TX',
      zip: '78701-1234',
      zip5: '78701',
    };
    const norms = { first_norm: 'JANE', last_norm: 'DOE', street_norm: '1 MAIN ST', city_norm: 'AUSTIN', updated_at: 'now' };
    await people
      .insertInto('people')
      .values([
        {
          person_key: 'a',
          ...person,
          ...norms,
          fields: JSON.stringify({ gender: 'Female', age: '25-34' }),
          interests: JSON.stringify(['pets']),
        },
        { person_key: 'b', ...person, ...norms, zip: '', zip5: '', fields: '{}', interests: '[]' },
      ])
      .execute();
    await migrateToLatest(db);
    const rows = await people.selectFrom('people').select(['person_key', 'record', 'record_fields']).orderBy('person_key').execute();
    expect(rows).toEqual([
      { person_key: 'a', record: '{"age":"25-34","gender":"Female","zip":"78701","interests":{"pets":true}}', record_fields: 4 },
      { person_key: 'b', record: '{}', record_fields: 0 },
    ]);
    await db.destroy();
  });

  it('turn bouncer-list reporting on for keys made before 0009 (importing the list is the opt-in)', async () => {
    const db = openSqlite({ file: ':memory:' });
    await migrateToLatest(db, Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0009')));
    await db.insertInto('api_keys').values(row('old')).execute();
    await migrateToLatest(db);
    expect(await db.selectFrom('api_keys').select(['name', 'bouncers']).execute()).toEqual([{ name: 'old', bouncers: 1 }]);
    await db.destroy();
  });

  it('mark the demo key and the demo people and events of an earlier first start, and nothing else (0011)', async () => {
    const db = openSqlite({ file: ':memory:' });
    await migrateToLatest(db, Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0011')));
    const { people, events } = demoDataset('2025-06-30');
    // Loaded just after midnight UTC: the rows say 1 July, the generator ran for 30 June.
    const loaded = '2025-07-01T00:00:03.000Z';
    const [, second, ...rest] = people;
    // The second demo id was re-imported since from `mailsure generate` output: another person.
    const stored = [
      ...people.slice(0, 1),
      { ...second!, firstName: 'Other', lastName: 'Person' },
      ...rest,
      { ...people[0]!, personKey: 'P9000000', emails: ['real@example.com'] },
    ];
    const old = db as unknown as Kysely<Pick<Database, 'people' | 'person_emails' | 'activity_events'>>;
    for (const [i, row] of peopleBatch(stored).rows.entries()) {
      const { person } = row;
      const { id } = await old.insertInto('people').values(personRow(row, loaded)).returning('id').executeTakeFirstOrThrow();
      if (i < 5 || person.personKey === 'P9000000') {
        await old
          .insertInto('person_emails')
          .values(person.emails.map((email, position) => ({ email, person_id: id, position, sha1: '', md5: '' })))
          .execute();
      }
    }
    const firstEvents = events.filter((e) => people[0]!.emails.includes(e.email));
    const secondEvents = events.filter((e) => second!.emails.includes(e.email));
    const eventRow = (e: ActivityEvent) => ({ email: e.email, source: e.source, seen_on: e.seenOn, event: e.event });
    await old
      .insertInto('activity_events')
      .values([...firstEvents, ...secondEvents].map(eventRow))
      .onConflict((oc) => oc.doNothing())
      .execute();
    // The operator's own event on a demo address: not the generator's.
    await old
      .insertInto('activity_events')
      .values({ email: people[0]!.emails[0]!, source: 'crm', seen_on: '2025-01-01', event: 'open' })
      .execute();
    await db
      .insertInto('api_keys')
      .values([row('demo'), row('acme')])
      .execute();

    await migrateToLatest(db);
    const marked = db as unknown as Kysely<{
      api_keys: { name: string; demo: number };
      people: { person_key: string; demo: number };
      activity_events: { email: string; source: string; demo: number };
    }>;
    expect(await marked.selectFrom('api_keys').select(['name', 'demo']).orderBy('name').execute()).toEqual([
      { name: 'acme', demo: 0 },
      { name: 'demo', demo: 1 },
    ]);
    const unmarked = await marked.selectFrom('people').select('person_key').where('demo', '=', 0).orderBy('person_key').execute();
    expect(unmarked.map((p) => p.person_key)).toEqual(['P0000002', 'P9000000']);
    expect(
      Number(
        (
          await marked
            .selectFrom('people')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('demo', '=', 1)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(people.length - 1);
    const eventMarks = await marked.selectFrom('activity_events').select(['email', 'source', 'demo']).execute();
    expect(eventMarks.filter((e) => e.demo === 1)).toHaveLength(new Set(firstEvents.map((e) => JSON.stringify(eventRow(e)))).size);
    expect(eventMarks.filter((e) => e.demo === 0).every((e) => e.source === 'crm' || second!.emails.includes(e.email))).toBe(true);
    await db.destroy();
  });

  it('leave keys made before 0010 without a record rate, and take only a positive one', async () => {
    const db = openSqlite({ file: ':memory:' });
    await migrateToLatest(db, Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0010')));
    await db.insertInto('api_keys').values(row('old')).execute();
    await migrateToLatest(db);
    expect(await db.selectFrom('api_keys').select(['name', 'record_rate']).execute()).toEqual([{ name: 'old', record_rate: null }]);
    await expect(db.updateTable('api_keys').set({ record_rate: 0 }).execute()).rejects.toThrow(/CHECK constraint failed/);
    await db.destroy();
  });

  it('leave keys made before 0012 without the evidence permission, and take only 0 or 1', async () => {
    const db = openSqlite({ file: ':memory:' });
    await migrateToLatest(db, Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0012')));
    await db.insertInto('api_keys').values(row('old')).execute();
    await migrateToLatest(db);
    expect(await db.selectFrom('api_keys').select(['name', 'evidence']).execute()).toEqual([{ name: 'old', evidence: 0 }]);
    await expect(db.updateTable('api_keys').set({ evidence: 2 }).execute()).rejects.toThrow(/CHECK constraint failed/);
    await db.destroy();
  });

  it('leave lists made before 0013 without evidence, and their chunks without any', async () => {
    const { db, old } = await withOldList('0013', 'Results');
    await old.insertInto('list_chunks').values({ list_id: 1, chunk_index: 0, records: 1, counts: '{}', results: '[]' }).execute();
    await migrateToLatest(db);
    expect(await db.selectFrom('lists').select(['id', 'evidence']).execute()).toEqual([{ id: 1, evidence: 0 }]);
    expect(await db.selectFrom('list_chunks').select(['results', 'evidence']).execute()).toEqual([{ results: '[]', evidence: null }]);
    await expect(db.updateTable('lists').set({ evidence: 2 }).execute()).rejects.toThrow(/CHECK constraint failed/);
    await db.destroy();
  });

  it('give lists made before 0016 version 0, and take no negative one', async () => {
    const { db } = await withOldList('0016', 'Processed');
    await migrateToLatest(db);
    expect(await db.selectFrom('lists').select(['id', 'version']).execute()).toEqual([{ id: 1, version: 0 }]);
    await expect(db.updateTable('lists').set({ version: -1 }).execute()).rejects.toThrow(/CHECK constraint failed/);
    await db.destroy();
  });

  it("record the people's blocking columns as version 1 when 0017 finds people (0005's or an older import's), 2 when it finds none", async () => {
    const versionAfter = async (withPeople: boolean) => {
      const db = openSqlite({ file: ':memory:' });
      await migrateToLatest(db, Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0017')));
      const people = db as unknown as Kysely<{ people: Record<string, unknown> }>;
      if (withPeople) {
        const person = { first_name: 'Jane', middle_name: null, last_name: 'Doe', address: 'RD 12 PO 5', city: 'Austin', state: 'TX' };
        const norms = { first_norm: 'jane', last_norm: 'doe', street_norm: 'RD 12 PO 5', city_norm: 'AUSTIN', updated_at: 'now' };
        await people
          .insertInto('people')
          .values({ person_key: 'a', ...person, zip: '78701', zip5: '78701', ...norms, fields: '{}', interests: '[]', record: '{}' })
          .execute();
      }
      await migrateToLatest(db);
      const rows = await db.selectFrom('derived_versions').selectAll().execute();
      await db.destroy();
      return rows;
    };
    expect(await versionAfter(true)).toEqual([{ name: 'people_blocking', version: 1 }]);
    expect(await versionAfter(false)).toEqual([{ name: 'people_blocking', version: 2 }]);
  });

  it('apply nothing when one fails, and say which', async () => {
    const db = openSqlite({ file: ':memory:' });
    await expect(migrateToLatest(db, broken)).rejects.toThrow(/migration 0002-broken failed.*no_such_table/);
    const tables = await db.introspection.getTables();
    expect(tables.map((t) => t.name)).not.toContain('made');
    await db.destroy();
  });
});

const url = process.env.MAILSURE_TEST_DATABASE_URL;

describe.skipIf(!url)(url ? 'migrations on PostgreSQL' : 'migrations on PostgreSQL (skipped: MAILSURE_TEST_DATABASE_URL not set)', () => {
  const schemas: string[] = [];
  const fresh = () => `mailsure_test_${randomBytes(6).toString('hex')}`;
  // After each test, not at the end: every schema left standing slows the catalog-wide look-up a
  // migration starts with, in this file and in any other using the database at the same time.
  afterEach(async () => {
    const admin = openPostgres({ url: url! });
    const dropping = schemas.splice(0);
    if (dropping.length > 0) await sql`drop schema if exists ${sql.join(dropping.map((name) => sql.id(name)))} cascade`.execute(admin);
    await admin.destroy();
  });

  it('run once when several processes start together, then are harmless', async () => {
    const schema = fresh();
    schemas.push(schema);
    const handles = [1, 2, 3].map(() => openPostgres({ url: url!, schema }));
    try {
      await Promise.all(handles.map((db) => migrateToLatest(db)));
      await migrateToLatest(handles[0]!);
      expect(await applied(handles[1]!)).toEqual(names);
    } finally {
      await Promise.all(handles.map((db) => db.destroy()));
    }
  });

  it.each(earlier)('upgrade a database left after %i migrations', async (k) => {
    await upgradesFrom(k, async () => {
      const schema = fresh();
      schemas.push(schema);
      return openPostgres({ url: url!, schema });
    });
  });

  it('apply nothing when one fails, and say which', async () => {
    const schema = fresh();
    schemas.push(schema);
    const db = openPostgres({ url: url!, schema });
    try {
      await expect(migrateToLatest(db, broken)).rejects.toThrow(/migration 0002-broken failed.*no_such_table/);
      const tables = await db.introspection.getTables();
      expect(tables.map((t) => t.name)).not.toContain('made');
    } finally {
      await db.destroy();
    }
  });
});

function row(name: string) {
  return {
    name,
    key_hash: `h-${name}`,
    key_prefix: 'p',
    webhook_secret: 's',
    services: '[]',
    variant: 'safe_to_send',
    fields: null,
    quota: null,
    rate: 1,
    trial: 0,
    created_at: new Date().toISOString(),
  };
}
