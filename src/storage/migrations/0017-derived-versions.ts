/**
 * Which version of the code derived a stored column that the live code re-derives when it changes
 * (identity/match/refresh-blocking.ts): a name and a version. The people's blocking columns were
 * derived by migration 0005's frozen copy of the matcher's `personBlockingColumns`, version 1; the
 * street parser has read more forms since (version 2), and the next open re-derives them with
 * today's code. A database without people yet starts at 2.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const derivedVersions: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('derived_versions')
      .addColumn('name', 'text', (col) => col.primaryKey())
      .addColumn('version', 'integer', (col) => col.notNull().check(sql`version >= 1`))
      .execute();
    // People stored before this migration may hold version 1's columns; an empty table holds none,
    // and whoever stores people from now on derives them with the code of 0017's day (2) or later.
    await sql`insert into derived_versions (name, version)
      select 'people_blocking', case when exists (select 1 from people) then 1 else 2 end`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('derived_versions').execute();
  },
};
