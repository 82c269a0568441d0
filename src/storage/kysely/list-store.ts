import type { Kysely } from 'kysely';
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
import type { Database } from '../database.js';
import { chunks, LOOKUP_CHUNK } from '../chunks.js';
import { newListRow, patchRow, toList } from './list-row.js';

const MAX_LIST_ID = 2_147_483_647;

export class KyselyListStore implements ListStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(list: NewList): Promise<ListRow> {
    const row = await this.db.insertInto('lists').values(newListRow(list)).returningAll().executeTakeFirstOrThrow();
    return toList(row);
  }

  async get(id: number): Promise<ListRow | undefined> {
    // Ids are PostgreSQL `integer`s: a larger number names no list (and would be a query error there).
    if (!Number.isSafeInteger(id) || id < 1 || id > MAX_LIST_ID) return undefined;
    const row = await this.db.selectFrom('lists').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toList(row);
  }

  async discard(id: number): Promise<boolean> {
    if (!Number.isSafeInteger(id) || id < 1 || id > MAX_LIST_ID) return false;
    const result = await this.db
      .deleteFrom('lists')
      .where('id', '=', id)
      .where('status', '=', 'Pending')
      .where('plan', 'is', null)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async listForKey(keyId: number, page: { limit: number; offset: number }): Promise<{ lists: ListRow[]; total: number }> {
    const rows = await this.db
      .selectFrom('lists')
      .selectAll()
      .where('key_id', '=', keyId)
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const { n } = await this.db
      .selectFrom('lists')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('key_id', '=', keyId)
      .executeTakeFirstOrThrow();
    return { lists: rows.map(toList), total: Number(n) };
  }

  async update(id: number, patch: ListPatch, onlyFrom?: readonly ListStatus[], version?: number): Promise<ListRow | undefined> {
    let query = this.db
      .updateTable('lists')
      .set(patchRow(patch, this.now().toISOString()))
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('id', '=', id);
    if (onlyFrom !== undefined) {
      if (onlyFrom.length === 0) return undefined;
      query = query.where('status', 'in', onlyFrom);
    }
    if (version !== undefined) query = query.where('version', '=', version);
    const row = await query.returningAll().executeTakeFirst();
    return row && toList(row);
  }

  async claim(listId: number, index: number, worker: string, now: string, until: string): Promise<boolean> {
    const row = await this.db
      .insertInto('list_chunk_claims')
      .values({ list_id: listId, chunk_index: index, worker, expires_at: until })
      .onConflict((oc) =>
        oc
          .columns(['list_id', 'chunk_index'])
          .doUpdateSet({ worker, expires_at: until })
          .where((eb) => eb.or([eb('list_chunk_claims.expires_at', '<=', now), eb('list_chunk_claims.worker', '=', worker)])),
      )
      .returning('chunk_index')
      .executeTakeFirst();
    return row !== undefined;
  }

  async markBilled(id: number): Promise<boolean> {
    const row = await this.db
      .updateTable('lists')
      .set({ billed: 1 })
      .where('id', '=', id)
      .where('billed', '=', 0)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async commitChunk(listId: number, chunk: ListChunk): Promise<boolean> {
    const inserted = await this.db
      .insertInto('list_chunks')
      .values({
        list_id: listId,
        chunk_index: chunk.index,
        records: chunk.records,
        counts: JSON.stringify(chunk.counts),
        results: chunk.results,
        evidence: chunk.evidence ?? null,
      })
      .onConflict((oc) => oc.columns(['list_id', 'chunk_index']).doNothing())
      .returning('chunk_index')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  async chunkCounts(listId: number): Promise<{ index: number; records: number; counts: unknown }[]> {
    const rows = await this.db
      .selectFrom('list_chunks')
      .select(['chunk_index', 'records', 'counts'])
      .where('list_id', '=', listId)
      .orderBy('chunk_index')
      .execute();
    return rows.map((r) => ({ index: r.chunk_index, records: r.records, counts: JSON.parse(r.counts) as unknown }));
  }

  async committedRecords(listIds: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (const ids of chunks([...new Set(listIds)], LOOKUP_CHUNK)) {
      const rows = await this.db
        .selectFrom('list_chunks')
        .select((eb) => ['list_id', eb.fn.sum<number | string>('records').as('records')])
        .where('list_id', 'in', ids)
        .groupBy('list_id')
        .execute();
      // PostgreSQL sums integers as bigint, which its driver hands over as a string.
      for (const row of rows) out.set(row.list_id, Number(row.records));
    }
    return out;
  }

  async chunkResults(listId: number, from: number, to: number): Promise<ListChunk[]> {
    const rows = await this.db
      .selectFrom('list_chunks')
      .select(['chunk_index', 'records', 'counts', 'results'])
      .where('list_id', '=', listId)
      .where('chunk_index', '>=', from)
      .where('chunk_index', '<', to)
      .orderBy('chunk_index')
      .execute();
    return rows.map((r) => ({ index: r.chunk_index, records: r.records, counts: JSON.parse(r.counts) as unknown, results: r.results }));
  }

  async chunkEvidence(listId: number, from: number, to: number): Promise<ChunkEvidence[]> {
    const rows = await this.db
      .selectFrom('list_chunks')
      .select(['chunk_index', 'records', 'evidence'])
      .where('list_id', '=', listId)
      .where('chunk_index', '>=', from)
      .where('chunk_index', '<', to)
      .orderBy('chunk_index')
      .execute();
    return rows.map((r) => ({ index: r.chunk_index, records: r.records, evidence: r.evidence }));
  }

  async addCallbackAttempt(listId: number, attempt: CallbackAttempt): Promise<void> {
    await this.db
      .insertInto('list_callbacks')
      .values({ list_id: listId, at: attempt.at, status: attempt.status, error: attempt.error })
      .execute();
  }

  async callbackAttempts(listId: number): Promise<CallbackAttempt[]> {
    const rows = await this.db
      .selectFrom('list_callbacks')
      .select(['at', 'status', 'error'])
      .where('list_id', '=', listId)
      .orderBy('at')
      .execute();
    return rows.map((r) => ({ at: r.at, status: r.status, error: r.error }));
  }

  async pendingCallbacks(maxAttempts: number): Promise<ListRow[]> {
    const rows = await this.db
      .selectFrom('lists')
      .selectAll('lists')
      .where('status', 'in', ['Results', 'Invalid', 'Error'])
      .where('callback_url', 'is not', null)
      // Both subqueries walk list_callbacks_by_list; the status filter uses lists_by_status.
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('list_callbacks')
              .select('list_callbacks.list_id')
              .whereRef('list_callbacks.list_id', '=', 'lists.id')
              .where('list_callbacks.error', 'is', null),
          ),
        ),
      )
      .where(
        (eb) => eb.selectFrom('list_callbacks').select(eb.fn.countAll().as('n')).whereRef('list_callbacks.list_id', '=', 'lists.id'),
        '<',
        maxAttempts,
      )
      .orderBy('id')
      .execute();
    return rows.map(toList);
  }

  async unfinished(): Promise<ListRow[]> {
    const rows = await this.db
      .selectFrom('lists')
      .selectAll()
      .where('status', 'in', ['Pending', 'Processed', 'Processing'])
      .orderBy('id')
      .execute();
    return rows.map(toList);
  }

  async waitingForKey(keyId: number): Promise<number> {
    const row = await this.db
      .selectFrom('lists')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('key_id', '=', keyId)
      .where((eb) =>
        eb.or([
          eb('status', 'in', ['Pending', 'Processing']),
          eb.and([eb('status', '=', 'Processed'), eb.or([eb('report', '=', 0), eb('purchase', 'is not', null)])]),
        ]),
      )
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async createdBefore(instant: string): Promise<ListRow[]> {
    const rows = await this.db.selectFrom('lists').selectAll().where('created_at', '<', instant).orderBy('id').execute();
    return rows.map(toList);
  }

  async countByStatus(): Promise<Partial<Record<ListStatus, number>>> {
    const rows = await this.db
      .selectFrom('lists')
      .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
  }

  async storedBytes(keyId: number, since: string): Promise<number> {
    const row = await this.db
      .selectFrom('lists')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size_bytes'), eb.lit(0)).as('bytes'))
      .where('key_id', '=', keyId)
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(row.bytes);
  }

  async forgetRecords(listId: number): Promise<number> {
    const result = await this.db
      .updateTable('list_chunks')
      .set({ results: '', evidence: null })
      .where('list_id', '=', listId)
      .where((eb) => eb.or([eb('results', '!=', ''), eb('evidence', 'is not', null)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
