import { describe, expect, it } from 'vitest';
import type { ListStatus } from '../../lists/list-record.js';
import { keyId, newList, type CurrentStorage } from './fixtures.js';

export function listStoreContract(storage: CurrentStorage): void {
  const lists = () => storage().lists;

  describe('ListStore', () => {
    it('finds no list for an id no list can have (beyond a 32-bit integer, zero, negative)', async () => {
      for (const id of [2_147_483_648, Number.MAX_SAFE_INTEGER, 0, -1, 1.5]) expect(await lists().get(id)).toBeUndefined();
    });

    it('creates a Pending list and reads it back with every field', async () => {
      const key = await keyId(storage(), 'acme');
      const created = await lists().create(newList(key));
      expect(created).toEqual({
        ...newList(key),
        id: created.id,
        status: 'Pending',
        error: null,
        records: 0,
        services: {},
        plan: null,
        purchase: null,
        updatedAt: '2026-11-22T10:00:00.000Z',
        version: 0,
      });
      expect(await lists().get(created.id)).toEqual(created);
      expect(await lists().get(created.id + 1000)).toBeUndefined();
      // Submitted without evidence (the field absent, as before migration 0013): none.
      expect((await lists().create(newList(key, { evidence: undefined }))).evidence).toBe(false);
      expect((await lists().create(newList(key, { evidence: false }))).evidence).toBe(false);
    });

    it('pages a key’s lists newest first and never shows another key’s', async () => {
      const a = await keyId(storage(), 'a');
      const b = await keyId(storage(), 'b');
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) ids.push((await lists().create(newList(a, { name: `l${i}.csv` }))).id);
      await lists().create(newList(b));
      const first = await lists().listForKey(a, { limit: 2, offset: 0 });
      expect(first.total).toBe(5);
      expect(first.lists.map((l) => l.id)).toEqual([ids[4], ids[3]]);
      expect((await lists().listForKey(a, { limit: 10, offset: 4 })).lists.map((l) => l.id)).toEqual([ids[0]]);
      expect((await lists().listForKey(b, { limit: 10, offset: 0 })).lists.every((l) => l.keyId === b)).toBe(true);
    });

    it('updates with a compare-and-set on the status', async () => {
      const list = await lists().create(newList(await keyId(storage(), 'acme')));
      const services = { email_validation: { status: 'Processing' as const, inputCount: 10 } };
      const updated = await lists().update(list.id, { records: 10, services, plan: { chunks: [0, 120] } }, ['Pending']);
      expect(updated).toMatchObject({ records: 10, services, plan: { chunks: [0, 120] }, status: 'Pending' });
      expect(await lists().update(list.id, { status: 'Cancelled' }, ['Pending', 'Processed'])).toMatchObject({ status: 'Cancelled' });
      expect(await lists().update(list.id, { status: 'Results' }, ['Pending', 'Processing'])).toBeUndefined();
      expect(await lists().update(list.id, { status: 'Results' }, [])).toBeUndefined();
      expect((await lists().get(list.id))!.status).toBe('Cancelled');
      expect(await lists().update(list.id + 99, { status: 'Error' })).toBeUndefined();
      expect(await lists().update(list.id, { error: 'boom', purchase: { fields: ['age'] } })).toMatchObject({
        error: 'boom',
        purchase: { fields: ['age'] },
      });
    });

    it('adds one to the version at every update and refuses a write over a version that changed', async () => {
      const list = await lists().create(newList(await keyId(storage(), 'acme')));
      const read = (await lists().update(list.id, { status: 'Processed' }))!;
      expect(read.version).toBe(1);
      // Another writer changes the list without changing its status (a purchase)…
      expect(await lists().update(list.id, { purchase: { fields: ['age'] } }, ['Processed'], read.version)).toMatchObject({ version: 2 });
      // …so a write decided from the row it read before is refused, and the purchase stands.
      expect(await lists().update(list.id, { status: 'Processing' }, ['Processed'], read.version)).toBeUndefined();
      expect(await lists().get(list.id)).toMatchObject({ status: 'Processed', purchase: { fields: ['age'] }, version: 2 });
      expect(await lists().update(list.id, { status: 'Processing' }, ['Processed'], 2)).toMatchObject({ status: 'Processing', version: 3 });
      // Version and status are both checked.
      expect(await lists().update(list.id, { status: 'Results' }, ['Processed'], 3)).toBeUndefined();
      expect(await lists().update(list.id, { status: 'Results' }, undefined, 3)).toMatchObject({ status: 'Results', version: 4 });
    });

    it('commits each chunk once and answers counts and results in index order', async () => {
      const list = await lists().create(newList(await keyId(storage(), 'acme')));
      expect(await lists().commitChunk(list.id, { index: 1, records: 2, counts: { v: 2 }, results: 'r1' })).toBe(true);
      expect(await lists().commitChunk(list.id, { index: 0, records: 3, counts: { v: 3 }, results: 'r0' })).toBe(true);
      expect(await lists().commitChunk(list.id, { index: 1, records: 9, counts: { v: 9 }, results: 'again' })).toBe(false);
      expect(await lists().chunkCounts(list.id)).toEqual([
        { index: 0, records: 3, counts: { v: 3 } },
        { index: 1, records: 2, counts: { v: 2 } },
      ]);
      expect((await lists().chunkResults(list.id, 1, 5)).map((c) => c.results)).toEqual(['r1']);
      expect((await lists().chunkResults(list.id, 0, 2)).map((c) => c.index)).toEqual([0, 1]);
      expect(await lists().chunkCounts(list.id + 1)).toEqual([]);
      const other = await lists().create(newList(list.keyId));
      await lists().commitChunk(other.id, { index: 0, records: 7, counts: {}, results: '' });
      expect(await lists().committedRecords([list.id, other.id, other.id + 1, list.id])).toEqual(
        new Map([
          [list.id, 5],
          [other.id, 7],
        ]),
      );
      expect((await lists().committedRecords([])).size).toBe(0);
    });

    it('commits a chunk’s evidence with its results, and reads it apart from them', async () => {
      const list = await lists().create(newList(await keyId(storage(), 'acme')));
      expect(await lists().commitChunk(list.id, { index: 0, records: 2, counts: {}, results: 'r0', evidence: 'e0' })).toBe(true);
      expect(await lists().commitChunk(list.id, { index: 1, records: 1, counts: {}, results: 'r1' })).toBe(true);
      // A second commit of the index changes neither its results nor its evidence.
      expect(await lists().commitChunk(list.id, { index: 0, records: 2, counts: {}, results: 'again', evidence: 'again' })).toBe(false);
      expect(await lists().chunkEvidence(list.id, 0, 5)).toEqual([
        { index: 0, records: 2, evidence: 'e0' },
        { index: 1, records: 1, evidence: null },
      ]);
      expect(await lists().chunkEvidence(list.id, 1, 2)).toEqual([{ index: 1, records: 1, evidence: null }]);
      expect(await lists().chunkResults(list.id, 0, 2)).toEqual([
        { index: 0, records: 2, counts: {}, results: 'r0' },
        { index: 1, records: 1, counts: {}, results: 'r1' },
      ]);
      expect(await lists().chunkEvidence(list.id + 1, 0, 5)).toEqual([]);
    });

    it('lets one worker claim a chunk until its lease ends, and renew it', async () => {
      const list = await lists().create(newList(await keyId(storage(), 'acme')));
      const t = (s: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, s)).toISOString();
      expect(await lists().claim(list.id, 3, 'a', t(0), t(30))).toBe(true);
      expect(await lists().claim(list.id, 3, 'b', t(10), t(40))).toBe(false);
      expect(await lists().claim(list.id, 4, 'b', t(10), t(40))).toBe(true);
      expect(await lists().claim(list.id, 3, 'a', t(20), t(50))).toBe(true);
      expect(await lists().claim(list.id, 3, 'b', t(40), t(70))).toBe(false);
      expect(await lists().claim(list.id, 3, 'b', t(50), t(80))).toBe(true);
      expect(await lists().claim(list.id, -1, 'a', t(50), t(80))).toBe(true);
      // A holder renewing until now releases: another takes it at once.
      expect(await lists().claim(list.id, -1, 'a', t(55), t(55))).toBe(true);
      expect(await lists().claim(list.id, -1, 'b', t(55), t(85))).toBe(true);
    });

    it('marks a list billed once', async () => {
      const list = await lists().create(newList(await keyId(storage(), 'acme')));
      expect(await lists().markBilled(list.id)).toBe(true);
      expect(await lists().markBilled(list.id)).toBe(false);
      expect(await lists().markBilled(list.id + 99)).toBe(false);
    });

    it('records callback attempts and finds unfinished and old lists', async () => {
      const key = await keyId(storage(), 'acme');
      const old = await lists().create(newList(key, { createdAt: '2026-01-01T00:00:00.000Z' }));
      const running = await lists().create(newList(key));
      await lists().update(old.id, { status: 'Results' });
      await lists().addCallbackAttempt(old.id, { at: '2026-01-01T00:01:00.000Z', status: null, error: 'connect ECONNREFUSED' });
      await lists().addCallbackAttempt(old.id, { at: '2026-01-01T00:03:00.000Z', status: 200, error: null });
      expect(await lists().callbackAttempts(old.id)).toEqual([
        { at: '2026-01-01T00:01:00.000Z', status: null, error: 'connect ECONNREFUSED' },
        { at: '2026-01-01T00:03:00.000Z', status: 200, error: null },
      ]);
      expect((await lists().unfinished()).map((l) => l.id)).toEqual([running.id]);
      expect((await lists().createdBefore('2026-06-01T00:00:00.000Z')).map((l) => l.id)).toEqual([old.id]);
    });

    it('adds up the bytes a key keeps stored since an instant', async () => {
      const a = await keyId(storage(), 'acme');
      const b = await keyId(storage(), 'other');
      expect(await lists().storedBytes(a, '2026-01-01T00:00:00.000Z')).toBe(0);
      await lists().create(newList(a, { sizeBytes: 1000, createdAt: '2025-12-31T23:59:59.999Z' }));
      await lists().create(newList(a, { sizeBytes: 2_000_000_000, createdAt: '2026-01-01T00:00:00.000Z' }));
      await lists().create(newList(a, { sizeBytes: 3000, createdAt: '2026-02-01T00:00:00.000Z' }));
      await lists().create(newList(b, { sizeBytes: 5000, createdAt: '2026-02-01T00:00:00.000Z' }));
      expect(await lists().storedBytes(a, '2026-01-01T00:00:00.000Z')).toBe(2_000_003_000);
      expect(await lists().storedBytes(b, '2026-01-01T00:00:00.000Z')).toBe(5000);
    });

    it('discards a list that never started, and only such a list', async () => {
      const a = await keyId(storage(), 'acme');
      const fresh = await lists().create(newList(a));
      const started = await lists().create(newList(a));
      await lists().update(started.id, { status: 'Processing' });
      expect(await lists().discard(fresh.id)).toBe(true);
      expect(await lists().get(fresh.id)).toBeUndefined();
      expect(await lists().discard(fresh.id)).toBe(false);
      expect(await lists().discard(started.id)).toBe(false);
      expect((await lists().get(started.id))?.status).toBe('Processing');
    });

    it('counts the lists of a key that wait for or hold work, not a report waiting for its purchase', async () => {
      const a = await keyId(storage(), 'acme');
      const b = await keyId(storage(), 'other');
      expect(await lists().waitingForKey(a)).toBe(0);
      await lists().create(newList(a));
      const processing = await lists().create(newList(a));
      await lists().update(processing.id, { status: 'Processing' });
      const done = await lists().create(newList(a));
      await lists().update(done.id, { status: 'Results' });
      const report = await lists().create(newList(a, { report: true }));
      await lists().update(report.id, { status: 'Processed' });
      await lists().create(newList(b));
      expect(await lists().waitingForKey(a)).toBe(2);
      await lists().update(report.id, { purchase: { at: '2026-01-01T00:00:00.000Z' } });
      expect(await lists().waitingForKey(a)).toBe(3);
      expect(await lists().waitingForKey(b)).toBe(1);
    });

    it('counts the lists of every key by status', async () => {
      expect(await lists().countByStatus()).toEqual({});
      const a = await keyId(storage(), 'acme');
      const b = await keyId(storage(), 'other');
      await lists().create(newList(a));
      const done = await lists().create(newList(b));
      await lists().create(newList(b));
      await lists().update(done.id, { status: 'Results' });
      expect(await lists().countByStatus()).toEqual({ Pending: 2, Results: 1 });
    });

    it("forgets the records a list's chunks hold, keeping their counts, and only that list's", async () => {
      const key = await keyId(storage(), 'acme');
      const gone = await lists().create(newList(key));
      const kept = await lists().create(newList(key));
      for (const id of [gone.id, kept.id]) {
        await lists().commitChunk(id, {
          index: 0,
          records: 2,
          counts: { email_validation: { 'status:valid': 2 } },
          results: '["hashes","ann@example.com"]',
          evidence: '[{"email":"ann@example.com"}]',
        });
        await lists().commitChunk(id, {
          index: 1,
          records: 1,
          counts: { email_validation: { 'status:invalid': 1 } },
          results: '["hashes","bob@example.com"]',
        });
      }
      expect(await lists().forgetRecords(gone.id)).toBe(2);
      expect(await lists().forgetRecords(gone.id)).toBe(0);
      expect((await lists().chunkResults(gone.id, 0, 2)).map((c) => c.results)).toEqual(['', '']);
      expect((await lists().chunkEvidence(gone.id, 0, 2)).map((c) => c.evidence)).toEqual([null, null]);
      expect((await lists().chunkCounts(gone.id)).map((c) => [c.records, c.counts])).toEqual([
        [2, { email_validation: { 'status:valid': 2 } }],
        [1, { email_validation: { 'status:invalid': 1 } }],
      ]);
      expect((await lists().committedRecords([gone.id])).get(gone.id)).toBe(3);
      expect((await lists().chunkResults(kept.id, 0, 2)).map((c) => c.results)).toEqual([
        '["hashes","ann@example.com"]',
        '["hashes","bob@example.com"]',
      ]);
      expect((await lists().chunkEvidence(kept.id, 0, 2)).map((c) => c.evidence)).toEqual(['[{"email":"ann@example.com"}]', null]);
    });

    it('finds finished lists whose callback was neither delivered nor tried the last time', async () => {
      const key = await keyId(storage(), 'acme');
      const make = async (status: ListStatus, tries: (string | null)[], callbackUrl: string | null = 'https://example.com/hook') => {
        const list = await lists().create(newList(key, { callbackUrl }));
        await lists().update(list.id, { status });
        for (const [i, error] of tries.entries()) {
          await lists().addCallbackAttempt(list.id, { at: `2026-01-01T00:0${i}:00.000Z`, status: error === null ? 204 : 503, error });
        }
        return list.id;
      };
      const untried = await make('Results', []);
      const failedTwice = await make('Invalid', ['answered HTTP 503', 'answered HTTP 503']);
      const errorList = await make('Error', ['connect ECONNREFUSED']);
      await make('Results', ['answered HTTP 503', null]);
      await make('Results', ['a', 'b', 'c']);
      await make('Cancelled', []);
      await make('Processing', []);
      await make('Pending', []);
      await make('Results', [], null);
      expect((await lists().pendingCallbacks(3)).map((l) => l.id)).toEqual([untried, failedTwice, errorList]);
      expect((await lists().pendingCallbacks(2)).map((l) => l.id)).toEqual([untried, errorList]);
      const [first] = await lists().pendingCallbacks(3);
      expect(first).toEqual(await lists().get(untried));
    });
  });
}
