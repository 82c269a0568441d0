import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { orderMatches } from '../client-list-order.js';
import type { ClientListEntry, ClientListKind, ClientListStore } from '../../verification/client-list-store.js';

/**
 * Rows per INSERT: 3 parameters each keeps a statement far below SQLite's 32,766 variables (and
 * PostgreSQL's 65,535) while still amortising the round trip.
 */
const BATCH_ROWS = 1_000;

export class KyselyClientListStore implements ClientListStore {
  constructor(private readonly db: Kysely<Database>) {}

  async add(keyId: number, entries: ClientListEntry[]): Promise<number> {
    const unique = uniqueEntries(entries);
    if (unique.length === 0) return 0;
    // One transaction: a file loads whole or not at all, and SQLite syncs once, not per batch.
    return this.db.transaction().execute(async (trx) => {
      let added = 0;
      for (let start = 0; start < unique.length; start += BATCH_ROWS) {
        const batch = unique.slice(start, start + BATCH_ROWS);
        // RETURNING lists only the rows actually inserted, on both engines, unlike affected-row counts.
        const inserted = await trx
          .insertInto('client_list_entries')
          .values(batch.map(({ kind, value }) => ({ key_id: keyId, kind, value })))
          .onConflict((oc) => oc.columns(['key_id', 'kind', 'value']).doNothing())
          .returning('value')
          .execute();
        added += inserted.length;
      }
      return added;
    });
  }

  async match(keyId: number, address: string, domain: string): Promise<ClientListEntry[]> {
    const rows = await this.db
      .selectFrom('client_list_entries')
      .select(['kind', 'value'])
      .where('key_id', '=', keyId)
      .where('value', 'in', [address, domain])
      .execute();
    return orderMatches(
      rows.map(({ kind, value }) => ({ kind: kind as ClientListKind, value })),
      address,
    );
  }

  async hasAny(keyId: number): Promise<boolean> {
    const row = await this.db.selectFrom('client_list_entries').select('key_id').where('key_id', '=', keyId).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  async count(keyId: number, kind: ClientListKind): Promise<number> {
    const row = await this.db
      .selectFrom('client_list_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('key_id', '=', keyId)
      .where('kind', '=', kind)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

/** Files often repeat a line; dropping repeats here saves statement parameters. */
export function uniqueEntries(entries: readonly ClientListEntry[]): ClientListEntry[] {
  const seen = new Map<string, ClientListEntry>();
  for (const entry of entries) seen.set(`${entry.kind}\u0000${entry.value}`, entry);
  return [...seen.values()];
}
