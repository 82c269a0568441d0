/** The outcome stores in this process's memory, for unit tests: the same behaviour as the kysely ones. */
import type { OutcomeSecrets } from '../../outcomes/outcome-event.js';
import type { OutcomeKeySettings, OutcomeKeyStore } from '../../outcomes/outcome-key-store.js';
import type {
  AccuracyCount,
  DomainOutcomeCount,
  OutcomeApplied,
  OutcomeEntry,
  OutcomeListKind,
  OutcomeStore,
  OutcomeWrite,
} from '../../outcomes/outcome-store.js';
import type { VerdictRecord, VerdictRecordStore } from '../../outcomes/verdict-record-store.js';

interface KeyRow {
  tokenHash: string | null;
  secrets: OutcomeSecrets;
  share: boolean;
  snsSubscribeUrl: string | null;
}

export class MemoryOutcomeKeyStore implements OutcomeKeyStore {
  private readonly rows = new Map<number, KeyRow>();

  private row(keyId: number): KeyRow {
    let row = this.rows.get(keyId);
    if (!row) this.rows.set(keyId, (row = { tokenHash: null, secrets: {}, share: false, snsSubscribeUrl: null }));
    return row;
  }

  async setToken(keyId: number, tokenHash: string): Promise<void> {
    this.row(keyId).tokenHash = tokenHash;
  }

  async keyOfToken(tokenHash: string): Promise<number | undefined> {
    for (const [keyId, row] of this.rows) if (row.tokenHash === tokenHash) return keyId;
    return undefined;
  }

  async keysWithToken(): Promise<number[]> {
    return [...this.rows]
      .filter(([, row]) => row.tokenHash !== null)
      .map(([keyId]) => keyId)
      .sort((a, b) => a - b);
  }

  async setSecrets(keyId: number, secrets: OutcomeSecrets): Promise<void> {
    this.row(keyId).secrets = { ...secrets };
  }

  async setShare(keyId: number, share: boolean): Promise<void> {
    this.row(keyId).share = share;
  }

  async setSnsSubscription(keyId: number, subscribeUrl: string | null): Promise<void> {
    this.row(keyId).snsSubscribeUrl = subscribeUrl;
  }

  async pendingSnsSubscriptions(): Promise<{ keyId: number; subscribeUrl: string }[]> {
    return [...this.rows]
      .filter(([, row]) => row.snsSubscribeUrl !== null)
      .sort(([a], [b]) => a - b)
      .map(([keyId, row]) => ({ keyId, subscribeUrl: row.snsSubscribeUrl! }));
  }

  async settings(keyId: number): Promise<OutcomeKeySettings | undefined> {
    const row = this.rows.get(keyId);
    if (!row) return undefined;
    const settings: OutcomeKeySettings = { keyId, hasToken: row.tokenHash !== null, secrets: { ...row.secrets }, share: row.share };
    if (row.snsSubscribeUrl !== null) settings.snsSubscribeUrl = row.snsSubscribeUrl;
    return settings;
  }
}

export class MemoryOutcomeStore implements OutcomeStore {
  private readonly seen = new Map<string, string>();
  private entries: OutcomeEntry[] = [];
  private readonly domainRows = new Map<string, DomainOutcomeCount & { keyId: number }>();
  private readonly accuracyRows = new Map<string, AccuracyCount & { keyId: number }>();

  async apply(keyId: number, writes: OutcomeWrite[], seenAt: string): Promise<OutcomeApplied> {
    let applied = 0;
    for (const write of writes) {
      const id = `${keyId}\u0000${write.eventId}`;
      if (this.seen.has(id)) continue;
      this.seen.set(id, seenAt);
      applied += 1;
      const change = write.change;
      if (change?.op === 'add') {
        this.entries = this.entries.filter((e) => !(e.keyId === keyId && e.kind === change.kind && e.value === change.value));
        this.entries.push({
          keyId,
          kind: change.kind,
          value: change.value,
          shared: change.shared,
          eventAt: change.eventAt,
          expiresAt: change.expiresAt,
        });
      } else if (change?.op === 'remove') {
        this.entries = this.entries.filter((e) => !(e.keyId === keyId && e.value === change.value && e.eventAt <= change.eventAt));
      }
      if (write.domainCount) {
        const c = write.domainCount;
        const row = this.domainRows.get(`${keyId}\u0000${c.domain}\u0000${c.day}\u0000${c.kind}`);
        if (row) row.count += 1;
        else this.domainRows.set(`${keyId}\u0000${c.domain}\u0000${c.day}\u0000${c.kind}`, { keyId, ...c, count: 1 });
      }
      if (write.accuracy) {
        const a = write.accuracy;
        const id2 = `${keyId}\u0000${a.day}\u0000${a.code}\u0000${a.kind}\u0000${a.source}`;
        const row = this.accuracyRows.get(id2);
        if (row) row.count += 1;
        else this.accuracyRows.set(id2, { keyId, ...a, count: 1 });
      }
    }
    return { applied, repeated: writes.length - applied };
  }

  async hasEntries(): Promise<boolean> {
    return this.entries.length > 0;
  }

  async match(address: string, now: string): Promise<OutcomeEntry[]> {
    return this.entries
      .filter((e) => e.value === address && e.expiresAt > now)
      .sort((a, b) => a.keyId - b.keyId || a.kind.localeCompare(b.kind))
      .map((e) => ({ ...e }));
  }

  async remove(keyId: number, value: string): Promise<number> {
    const before = this.entries.length;
    this.entries = this.entries.filter((e) => !(e.keyId === keyId && e.value === value));
    return before - this.entries.length;
  }

  async countEntries(keyId: number, now: string): Promise<Record<OutcomeListKind, number>> {
    const counts: Record<OutcomeListKind, number> = { bouncer: 0, complainer: 0 };
    for (const e of this.entries) if (e.keyId === keyId && e.expiresAt > now) counts[e.kind] += 1;
    return counts;
  }

  async domainCounts(keyId: number, sinceDay: string): Promise<DomainOutcomeCount[]> {
    return [...this.domainRows.values()]
      .filter((r) => r.keyId === keyId && r.day >= sinceDay)
      .map(({ keyId: _k, ...r }) => r)
      .sort((a, b) => cmp(a.day, b.day) || cmp(a.domain, b.domain) || cmp(a.kind, b.kind));
  }

  async accuracy(keyId: number | undefined, sinceDay: string): Promise<AccuracyCount[]> {
    const sums = new Map<string, AccuracyCount>();
    for (const row of this.accuracyRows.values()) {
      if ((keyId !== undefined && row.keyId !== keyId) || row.day < sinceDay) continue;
      const id = `${row.day}\u0000${row.code}\u0000${row.kind}\u0000${row.source}`;
      const sum = sums.get(id);
      if (sum) sum.count += row.count;
      else sums.set(id, { day: row.day, code: row.code, kind: row.kind, source: row.source, count: row.count });
    }
    return [...sums.values()].sort((a, b) => cmp(a.day, b.day) || a.code - b.code || cmp(a.kind, b.kind) || cmp(a.source, b.source));
  }

  async prune(cut: { now: string; seenBefore: string; dayBefore: string }): Promise<void> {
    this.entries = this.entries.filter((e) => e.expiresAt > cut.now);
    for (const [id, at] of this.seen) if (at < cut.seenBefore) this.seen.delete(id);
    for (const [id, row] of this.domainRows) if (row.day < cut.dayBefore) this.domainRows.delete(id);
    for (const [id, row] of this.accuracyRows) if (row.day < cut.dayBefore) this.accuracyRows.delete(id);
  }
}

export class MemoryVerdictRecordStore implements VerdictRecordStore {
  private readonly rows = new Map<string, VerdictRecord>();

  async record(records: VerdictRecord[]): Promise<void> {
    for (const r of records) this.rows.set(`${r.keyId}\u0000${r.id}`, { ...r });
  }

  async find(keyId: number, ids: string[]): Promise<VerdictRecord[]> {
    return [...new Set(ids)].flatMap((id) => {
      const row = this.rows.get(`${keyId}\u0000${id}`);
      return row ? [{ ...row }] : [];
    });
  }

  async prune(before: string): Promise<number> {
    let n = 0;
    for (const [id, row] of this.rows) {
      if (row.at >= before) continue;
      this.rows.delete(id);
      n += 1;
    }
    return n;
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
