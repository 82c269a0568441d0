/**
 * Importing a bouncer list is the opt-in (decisions §2): every key reports bouncer-list matches
 * as code 520 unless it opted out. Keys made before this had the feature off only because it was
 * off by default (nobody could opt out yet), so they all get it; new keys get it from
 * createKey. The column's default is left as is: every insert writes the flag.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const bouncersByDefault: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`update api_keys set bouncers = 1`.execute(db);
  },
  // Which keys had it off before is not known any more; keys keep what they have.
  async down(): Promise<void> {},
};
