/**
 * Which version of the code derived a stored column that the live code re-derives when it changes
 * (identity/match/refresh-blocking.ts): a name and a version. The people's blocking columns were
 * derived by migration 0005's frozen copy of the matcher's `personBlockingColumns`, version 1; the
 * street parser has read more forms since, and the next open re-derives them with today's code.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const derivedVersions: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('derived_versions')
      .addColumn('name', 'text', (col) => col.primaryKey())
      .addColumn('version', 'integer', (col) => col.notNull().check(sql`version >= 1`))
      .execute();
    await sql`insert into derived_versions (name, version) values ('people_blocking', 1)`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('derived_versions').execute();
  },
};
