/**
 * OutcomeStore.apply on SQLite: one body's writes in one synchronous better-sqlite3 transaction
 * over statements prepared once. kysely's path builds, compiles and runs each statement through
 * its connection mutex and several promise hops, and that cost more than parsing the events it
 * stores (bench/outcome-ingest.bench.ts). A statement per row is no slower here than one
 * statement per kind of write over a JSON array of rows (json_each; measured: what SQLite does
 * per row, and the commit, dominate either way) and keeps the writes in order by construction.
 * Being synchronous, nothing else runs on the connection between these statements; the store
 * takes this path only when no kysely transaction is open on the connection (its statements
 * would join that transaction).
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { OutcomeApplied, OutcomeWrite } from '../../outcomes/outcome-store.js';

export type SqliteOutcomeWriter = (keyId: number, writes: readonly OutcomeWrite[], seenAt: string) => OutcomeApplied;

export function sqliteOutcomeWriter(sqlite: BetterSqlite3.Database): SqliteOutcomeWriter {
  // The insert, not a prior lookup, decides: another process's delivery of the same event waits on the lock.
  const seen = sqlite.prepare('insert into outcome_events_seen (key_id, event_id, seen_at) values (?, ?, ?) on conflict do nothing');
  // A repeated listing renews the entry: its event and expiry are the latest.
  const add = sqlite.prepare(
    'insert into outcome_entries (key_id, kind, value, shared, event_at, expires_at) values (?, ?, ?, ?, ?, ?) ' +
      'on conflict (key_id, kind, value) do update set shared = excluded.shared, event_at = excluded.event_at, expires_at = excluded.expires_at',
  );
  const remove = sqlite.prepare('delete from outcome_entries where key_id = ? and value = ? and event_at <= ?');
  const domainCount = sqlite.prepare(
    'insert into outcome_domain_counts (key_id, domain, day, kind, count) values (?, ?, ?, ?, ?) ' +
      'on conflict (key_id, domain, day, kind) do update set count = outcome_domain_counts.count + excluded.count',
  );
  const accuracy = sqlite.prepare(
    'insert into outcome_accuracy (key_id, day, code, kind, source, count) values (?, ?, ?, ?, ?, ?) ' +
      'on conflict (key_id, day, code, kind, source) do update set count = outcome_accuracy.count + excluded.count',
  );

  const apply = sqlite.transaction((keyId: number, writes: readonly OutcomeWrite[], seenAt: string): OutcomeApplied => {
    const domains = new Map<string, { domain: string; day: string; kind: string; count: number }>();
    const accuracies = new Map<string, { day: string; code: number; kind: string; source: string; count: number }>();
    let applied = 0;
    for (const write of writes) {
      // A repeat within the same delivery is a repeat too: its insert changes nothing.
      if (seen.run(keyId, write.eventId, seenAt).changes === 0) continue;
      applied += 1;
      const change = write.change;
      if (change?.op === 'add') add.run(keyId, change.kind, change.value, change.shared ? 1 : 0, change.eventAt, change.expiresAt);
      else if (change?.op === 'remove') remove.run(keyId, change.value, change.eventAt);
      const c = write.domainCount;
      if (c) {
        const id = `${c.domain}\u0000${c.day}\u0000${c.kind}`;
        const known = domains.get(id);
        if (known) known.count += 1;
        else domains.set(id, { domain: c.domain, day: c.day, kind: c.kind, count: 1 });
      }
      const a = write.accuracy;
      if (a) {
        const id = `${a.day}\u0000${a.code}\u0000${a.kind}\u0000${a.source}`;
        const known = accuracies.get(id);
        if (known) known.count += 1;
        else accuracies.set(id, { day: a.day, code: a.code, kind: a.kind, source: a.source, count: 1 });
      }
    }
    // Counts summed per body: one upsert per row they change, not one per event.
    for (const c of domains.values()) domainCount.run(keyId, c.domain, c.day, c.kind, c.count);
    for (const a of accuracies.values()) accuracy.run(keyId, a.day, a.code, a.kind, a.source, a.count);
    return { applied, repeated: writes.length - applied };
  });

  // IMMEDIATE: the write lock at BEGIN (waiting as busy_timeout allows), never a failed upgrade midway.
  return (keyId, writes, seenAt) => apply.immediate(keyId, writes, seenAt);
}
