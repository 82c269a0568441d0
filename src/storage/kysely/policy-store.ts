import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { PolicyEntry, PolicyKind, PolicyStore } from '../../verification/policy/policy-store.js';
import { POLICY_KINDS } from '../../verification/policy/policy-store.js';

const BATCH_ROWS = 1_000;

export class KyselyPolicyStore implements PolicyStore {
  constructor(private readonly db: Kysely<Database>) {}

  async add(entries: PolicyEntry[]): Promise<number> {
    const unique = [...new Map(entries.map((e) => [`${e.kind}\u0000${e.value}`, e])).values()];
    if (unique.length === 0) return 0;
    return this.db.transaction().execute(async (trx) => {
      let added = 0;
      for (let start = 0; start < unique.length; start += BATCH_ROWS) {
        const inserted = await trx
          .insertInto('policy_entries')
          .values(unique.slice(start, start + BATCH_ROWS))
          .onConflict((oc) => oc.columns(['kind', 'value']).doNothing())
          .returning('value')
          .execute();
        added += inserted.length;
      }
      return added;
    });
  }

  async match(address: string, domain: string): Promise<PolicyEntry[]> {
    const rows = await this.db.selectFrom('policy_entries').select(['kind', 'value']).where('value', 'in', [address, domain]).execute();
    return orderPolicyMatches(rows as PolicyEntry[], address);
  }

  async hasAny(): Promise<boolean> {
    return (await this.db.selectFrom('policy_entries').select('kind').limit(1).executeTakeFirst()) !== undefined;
  }

  async count(kind: PolicyKind): Promise<number> {
    const row = await this.db
      .selectFrom('policy_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('kind', '=', kind)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

/** Address entries before domain entries, then in POLICY_KINDS order: the same on every engine. */
export function orderPolicyMatches(entries: PolicyEntry[], address: string): PolicyEntry[] {
  return [...entries].sort(
    (a, b) => Number(b.value === address) - Number(a.value === address) || POLICY_KINDS.indexOf(a.kind) - POLICY_KINDS.indexOf(b.kind),
  );
}
