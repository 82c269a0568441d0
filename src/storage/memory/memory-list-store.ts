import type {
  CallbackAttempt,
  ChunkEvidence,
  ListChunk,
  ListPatch,
  ListRow,
  ListStatus,
  ListStore,
  NewList,
} from '../../lists/list-record.js';

const clone = <T>(value: T): T => structuredClone(value);

/** The lists store in memory: the reference the kysely store's contract tests agree with. */
export class MemoryListStore implements ListStore {
  private readonly lists = new Map<number, ListRow>();
  private readonly chunks = new Map<number, Map<number, ListChunk>>();
  private readonly callbacks = new Map<number, CallbackAttempt[]>();
  private lastId = 0;

  constructor(private readonly now: () => Date = () => new Date()) {}

  async create(list: NewList): Promise<ListRow> {
    const row: ListRow = {
      ...clone(list),
      evidence: list.evidence ?? false,
      id: ++this.lastId,
      status: 'Pending',
      error: null,
      records: 0,
      services: {},
      plan: null,
      purchase: null,
      updatedAt: list.createdAt,
      version: 0,
    };
    this.lists.set(row.id, row);
    return clone(row);
  }

  async get(id: number): Promise<ListRow | undefined> {
    const row = this.lists.get(id);
    return row && clone(row);
  }

  async discard(id: number): Promise<boolean> {
    const row = this.lists.get(id);
    if (!row || row.status !== 'Pending' || row.plan !== null) return false;
    return this.lists.delete(id);
  }

  async listForKey(keyId: number, page: { limit: number; offset: number }): Promise<{ lists: ListRow[]; total: number }> {
    const mine = [...this.lists.values()].filter((l) => l.keyId === keyId).sort((a, b) => b.id - a.id);
    return { lists: mine.slice(page.offset, page.offset + page.limit).map(clone), total: mine.length };
  }

  async update(id: number, patch: ListPatch, onlyFrom?: readonly ListStatus[], version?: number): Promise<ListRow | undefined> {
    const row = this.lists.get(id);
    if (!row || (onlyFrom !== undefined && !onlyFrom.includes(row.status))) return undefined;
    if (version !== undefined && row.version !== version) return undefined;
    Object.assign(row, clone(patch), { updatedAt: this.now().toISOString(), version: row.version + 1 });
    return clone(row);
  }

  private readonly billed = new Set<number>();
  private readonly claims = new Map<string, { worker: string; until: string }>();

  async claim(listId: number, index: number, worker: string, now: string, until: string): Promise<boolean> {
    const key = `${listId}:${index}`;
    const held = this.claims.get(key);
    if (held && held.until > now && held.worker !== worker) return false;
    this.claims.set(key, { worker, until });
    return true;
  }

  async markBilled(id: number): Promise<boolean> {
    if (!this.lists.has(id) || this.billed.has(id)) return false;
    this.billed.add(id);
    return true;
  }

  async commitChunk(listId: number, chunk: ListChunk): Promise<boolean> {
    let byIndex = this.chunks.get(listId);
    if (!byIndex) this.chunks.set(listId, (byIndex = new Map()));
    if (byIndex.has(chunk.index)) return false;
    byIndex.set(chunk.index, clone(chunk));
    return true;
  }

  async chunkCounts(listId: number): Promise<{ index: number; records: number; counts: unknown }[]> {
    return this.sorted(listId).map((c) => ({ index: c.index, records: c.records, counts: clone(c.counts) }));
  }

  async committedRecords(listIds: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (const id of listIds) {
      const chunks = this.sorted(id);
      if (chunks.length > 0)
        out.set(
          id,
          chunks.reduce((n, c) => n + c.records, 0),
        );
    }
    return out;
  }

  async chunkResults(listId: number, from: number, to: number): Promise<ListChunk[]> {
    return this.sorted(listId)
      .filter((c) => c.index >= from && c.index < to)
      .map(({ evidence: _evidence, ...chunk }) => clone(chunk));
  }

  async chunkEvidence(listId: number, from: number, to: number): Promise<ChunkEvidence[]> {
    return this.sorted(listId)
      .filter((c) => c.index >= from && c.index < to)
      .map((c) => ({ index: c.index, records: c.records, evidence: c.evidence ?? null }));
  }

  async addCallbackAttempt(listId: number, attempt: CallbackAttempt): Promise<void> {
    const list = this.callbacks.get(listId) ?? [];
    list.push({ ...attempt });
    this.callbacks.set(listId, list);
  }

  async callbackAttempts(listId: number): Promise<CallbackAttempt[]> {
    return [...(this.callbacks.get(listId) ?? [])].sort((a, b) => a.at.localeCompare(b.at)).map((a) => ({ ...a }));
  }

  async pendingCallbacks(maxAttempts: number): Promise<ListRow[]> {
    return [...this.lists.values()]
      .filter((l) => (l.status === 'Results' || l.status === 'Invalid' || l.status === 'Error') && l.callbackUrl !== null)
      .filter((l) => {
        const attempts = this.callbacks.get(l.id) ?? [];
        return attempts.length < maxAttempts && attempts.every((a) => a.error !== null);
      })
      .sort((a, b) => a.id - b.id)
      .map(clone);
  }

  async unfinished(): Promise<ListRow[]> {
    return [...this.lists.values()]
      .filter((l) => l.status === 'Pending' || l.status === 'Processed' || l.status === 'Processing')
      .map(clone);
  }

  async waitingForKey(keyId: number): Promise<number> {
    return [...this.lists.values()].filter(
      (l) =>
        l.keyId === keyId &&
        (l.status === 'Pending' || l.status === 'Processing' || (l.status === 'Processed' && (!l.report || l.purchase !== null))),
    ).length;
  }

  async createdBefore(instant: string): Promise<ListRow[]> {
    return [...this.lists.values()].filter((l) => l.createdAt < instant).map(clone);
  }

  async storedBytes(keyId: number, since: string): Promise<number> {
    return [...this.lists.values()].filter((l) => l.keyId === keyId && l.createdAt >= since).reduce((n, l) => n + l.sizeBytes, 0);
  }

  async countByStatus(): Promise<Partial<Record<ListStatus, number>>> {
    const counts: Partial<Record<ListStatus, number>> = {};
    for (const list of this.lists.values()) counts[list.status] = (counts[list.status] ?? 0) + 1;
    return counts;
  }

  async forgetRecords(listId: number): Promise<number> {
    let forgotten = 0;
    for (const chunk of this.chunks.get(listId)?.values() ?? []) {
      if (chunk.results === '' && chunk.evidence === undefined) continue;
      chunk.results = '';
      delete chunk.evidence;
      forgotten += 1;
    }
    return forgotten;
  }

  private sorted(listId: number): ListChunk[] {
    return [...(this.chunks.get(listId)?.values() ?? [])].sort((a, b) => a.index - b.index);
  }
}
