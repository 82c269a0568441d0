/**
 * Look-ups by a plain email address that find the same mailbox written another way (issue 30):
 * `person_emails` and `activity_events` get the canonical spelling of each address's mailbox
 * (people/mailbox.ts) where its domain has a rule, null elsewhere, indexed. Existing rows get it
 * here, in batches, from this migration's frozen copy of the rules (frozen/0014-mailbox.ts).
 */
import type { Kysely, Migration } from 'kysely';
import { mailboxKey0014 } from './frozen/0014-mailbox.js';

const BATCH = 5_000;

interface Tables {
  person_emails: { email: string; mailbox: string | null };
  activity_events: { email: string; mailbox: string | null };
}

export const mailbox: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const table of ['person_emails', 'activity_events'] as const) {
      await db.schema.alterTable(table).addColumn('mailbox', 'text').execute();
      await backfill(db as unknown as Kysely<Tables>, table);
      await db.schema.createIndex(`${table}_by_mailbox`).on(table).column('mailbox').execute();
    }
  },

  async down(db: Kysely<unknown>): Promise<void> {
    for (const table of ['activity_events', 'person_emails'] as const) {
      await db.schema.dropIndex(`${table}_by_mailbox`).execute();
      await db.schema.alterTable(table).dropColumn('mailbox').execute();
    }
  },
};

/** Walks the addresses in order (both tables' indexes lead with `email`) and sets the key where there is one. */
async function backfill(db: Kysely<Tables>, table: keyof Tables): Promise<void> {
  let after = '';
  for (;;) {
    const rows = await db.selectFrom(table).select('email').distinct().where('email', '>', after).orderBy('email').limit(BATCH).execute();
    if (rows.length === 0) return;
    for (const { email } of rows) {
      const key = mailboxKey0014(email);
      if (key !== undefined) await db.updateTable(table).set({ mailbox: key }).where('email', '=', email).execute();
    }
    after = rows[rows.length - 1]!.email;
  }
}
