import type { Kysely, Transaction } from 'kysely';
import type { OutcomeKind, OutcomeSource } from '../../outcomes/outcome-event.js';
import type {
  AccuracyCount,
  DomainOutcomeCount,
  OutcomeApplied,
  OutcomeEntry,
  OutcomeListKind,
  OutcomeStore,
  OutcomeWrite,
} from '../../outcomes/outcome-store.js';
import { chunks, LOOKUP_CHUNK } from '../chunks.js';
import type { Database } from '../database.js';
import { sqliteHandleOf } from '../sqlite/open-sqlite.js';
import { sqliteOutcomeWriter, type SqliteOutcomeWriter } from './sqlite-outcome-writes.js';

const BATCH_ROWS = 500;
type Change = NonNullable<OutcomeWrite['change']>;

export class KyselyOutcomeStore implements OutcomeStore {
  private sqliteWriter: SqliteOutcomeWriter | undefined;

  constructor(private readonly db: Kysely<Database>) {}

  async apply(keyId: number, writes: OutcomeWrite[], seenAt: string): Promise<OutcomeApplied> {
    const sqlite = sqliteHandleOf(this.db);
    if (sqlite && !sqlite.inTransaction) {
      // Prepared on first use: the tables exist by then (migrations ran at open).
      this.sqliteWriter ??= sqliteOutcomeWriter(sqlite);
      return this.sqliteWriter(keyId, writes, seenAt);
    }
    return this.db.transaction().execute(async (trx) => {
      const fresh = new Set<string>();
      const ids = [...new Set(writes.map((w) => w.eventId))];
      for (const batch of chunks(ids, BATCH_ROWS)) {
        // The insert, not a prior lookup, decides: a concurrent delivery of the same event waits on the row.
        const inserted = await trx
          .insertInto('outcome_events_seen')
          .values(batch.map((id) => ({ key_id: keyId, event_id: id, seen_at: seenAt })))
          .onConflict((oc) => oc.columns(['key_id', 'event_id']).doNothing())
          .returning('event_id')
          .execute();
        for (const row of inserted) fresh.add(row.event_id);
      }
      const applying: OutcomeWrite[] = [];
      for (const write of writes) {
        // The first write of an id applies; a repeat within the same delivery is a repeat too.
        if (fresh.delete(write.eventId)) applying.push(write);
      }
      await applyChanges(
        trx,
        keyId,
        applying.flatMap((w) => (w.change ? [w.change] : [])),
      );
      await addDomainCounts(trx, keyId, applying);
      await addAccuracy(trx, keyId, applying);
      return { applied: applying.length, repeated: writes.length - applying.length };
    });
  }

  async hasEntries(): Promise<boolean> {
    return (await this.db.selectFrom('outcome_entries').select('key_id').limit(1).executeTakeFirst()) !== undefined;
  }

  async match(address: string, now: string): Promise<OutcomeEntry[]> {
    const rows = await this.db
      .selectFrom('outcome_entries')
      .selectAll()
      .where('value', '=', address)
      .where('expires_at', '>', now)
      .orderBy('key_id')
      .orderBy('kind')
      .execute();
    return rows.map((row) => ({
      keyId: row.key_id,
      kind: row.kind as OutcomeListKind,
      value: row.value,
      shared: row.shared === 1,
      eventAt: row.event_at,
      expiresAt: row.expires_at,
    }));
  }

  async remove(keyId: number, value: string): Promise<number> {
    const result = await this.db.deleteFrom('outcome_entries').where('key_id', '=', keyId).where('value', '=', value).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async countEntries(keyId: number, now: string): Promise<Record<OutcomeListKind, number>> {
    const rows = await this.db
      .selectFrom('outcome_entries')
      .select((eb) => ['kind', eb.fn.countAll<number>().as('n')])
      .where('key_id', '=', keyId)
      .where('expires_at', '>', now)
      .groupBy('kind')
      .execute();
    const counts: Record<OutcomeListKind, number> = { bouncer: 0, complainer: 0 };
    for (const row of rows) counts[row.kind as OutcomeListKind] = Number(row.n);
    return counts;
  }

  async domainCounts(keyId: number, sinceDay: string): Promise<DomainOutcomeCount[]> {
    const rows = await this.db
      .selectFrom('outcome_domain_counts')
      .select(['domain', 'day', 'kind', 'count'])
      .where('key_id', '=', keyId)
      .where('day', '>=', sinceDay)
      .orderBy('day')
      .orderBy('domain')
      .orderBy('kind')
      .execute();
    return rows.map((row) => ({ domain: row.domain, day: row.day, kind: row.kind as OutcomeKind, count: Number(row.count) }));
  }

  async accuracy(keyId: number | undefined, sinceDay: string): Promise<AccuracyCount[]> {
    let query = this.db
      .selectFrom('outcome_accuracy')
      .select((eb) => ['day', 'code', 'kind', 'source', eb.cast<number>(eb.fn.sum('count'), 'bigint').as('total')])
      .where('day', '>=', sinceDay);
    if (keyId !== undefined) query = query.where('key_id', '=', keyId);
    const rows = await query
      .groupBy(['day', 'code', 'kind', 'source'])
      .orderBy('day')
      .orderBy('code')
      .orderBy('kind')
      .orderBy('source')
      .execute();
    return rows.map((row) => ({
      day: row.day,
      code: Number(row.code),
      kind: row.kind as OutcomeKind,
      source: row.source as OutcomeSource,
      count: Number(row.total),
    }));
  }

  async prune(cut: { now: string; seenBefore: string; dayBefore: string }): Promise<void> {
    await this.db.deleteFrom('outcome_entries').where('expires_at', '<=', cut.now).execute();
    await this.db.deleteFrom('outcome_events_seen').where('seen_at', '<', cut.seenBefore).execute();
    await this.db.deleteFrom('outcome_domain_counts').where('day', '<', cut.dayBefore).execute();
    await this.db.deleteFrom('outcome_accuracy').where('day', '<', cut.dayBefore).execute();
  }
}

/** In order, a run of adds in one statement and a run of removes in one: a later event's write comes after an earlier one's. */
async function applyChanges(trx: Transaction<Database>, keyId: number, changes: Change[]): Promise<void> {
  let run: Change[] = [];
  const flush = async () => {
    if (run.length === 0) return;
    if (run[0]!.op === 'add') await addEntries(trx, keyId, run as Extract<Change, { op: 'add' }>[]);
    else await removeEntries(trx, keyId, run as Extract<Change, { op: 'remove' }>[]);
    run = [];
  };
  for (const change of changes) {
    if (run.length > 0 && (run[0]!.op !== change.op || run.length >= BATCH_ROWS)) await flush();
    run.push(change);
  }
  await flush();
}

async function addEntries(trx: Transaction<Database>, keyId: number, adds: Extract<Change, { op: 'add' }>[]): Promise<void> {
  const rows = [...new Map(adds.map((a) => [`${a.kind}\u0000${a.value}`, a])).values()].map((a) => ({
    key_id: keyId,
    kind: a.kind,
    value: a.value,
    shared: a.shared ? 1 : 0,
    event_at: a.eventAt,
    expires_at: a.expiresAt,
  }));
  await trx
    .insertInto('outcome_entries')
    .values(rows)
    // A repeated listing renews the entry: its event and expiry are the latest.
    .onConflict((oc) =>
      oc.columns(['key_id', 'kind', 'value']).doUpdateSet((eb) => ({
        shared: eb.ref('excluded.shared'),
        event_at: eb.ref('excluded.event_at'),
        expires_at: eb.ref('excluded.expires_at'),
      })),
    )
    .execute();
}

async function removeEntries(trx: Transaction<Database>, keyId: number, removes: Extract<Change, { op: 'remove' }>[]): Promise<void> {
  for (const batch of chunks(removes, LOOKUP_CHUNK / 2)) {
    await trx
      .deleteFrom('outcome_entries')
      .where('key_id', '=', keyId)
      .where((eb) => eb.or(batch.map((r) => eb.and([eb('value', '=', r.value), eb('event_at', '<=', r.eventAt)]))))
      .execute();
  }
}

async function addDomainCounts(trx: Transaction<Database>, keyId: number, writes: OutcomeWrite[]): Promise<void> {
  const counts = new Map<string, { domain: string; day: string; kind: string; count: number }>();
  for (const { domainCount: c } of writes) {
    if (!c) continue;
    const id = `${c.domain}\u0000${c.day}\u0000${c.kind}`;
    const known = counts.get(id);
    if (known) known.count += 1;
    else counts.set(id, { ...c, count: 1 });
  }
  for (const batch of chunks([...counts.values()], BATCH_ROWS)) {
    await trx
      .insertInto('outcome_domain_counts')
      .values(batch.map((c) => ({ key_id: keyId, ...c })))
      .onConflict((oc) =>
        oc
          .columns(['key_id', 'domain', 'day', 'kind'])
          .doUpdateSet((eb) => ({ count: eb('outcome_domain_counts.count', '+', eb.ref('excluded.count')) })),
      )
      .execute();
  }
}

async function addAccuracy(trx: Transaction<Database>, keyId: number, writes: OutcomeWrite[]): Promise<void> {
  const counts = new Map<string, { day: string; code: number; kind: string; source: string; count: number }>();
  for (const { accuracy: a } of writes) {
    if (!a) continue;
    const id = `${a.day}\u0000${a.code}\u0000${a.kind}\u0000${a.source}`;
    const known = counts.get(id);
    if (known) known.count += 1;
    else counts.set(id, { ...a, count: 1 });
  }
  for (const batch of chunks([...counts.values()], BATCH_ROWS)) {
    await trx
      .insertInto('outcome_accuracy')
      .values(batch.map((a) => ({ key_id: keyId, ...a })))
      .onConflict((oc) =>
        oc
          .columns(['key_id', 'day', 'code', 'kind', 'source'])
          .doUpdateSet((eb) => ({ count: eb('outcome_accuracy.count', '+', eb.ref('excluded.count')) })),
      )
      .execute();
  }
}
