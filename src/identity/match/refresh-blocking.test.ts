import { describe, expect, it } from 'vitest';
import type { NewPerson } from '../../people/person.js';
import { preparePeople } from '../../people/person-row.js';
import { MemoryPeopleStore } from '../../storage/memory/memory-people-store.js';
import { personBlockingColumns } from './blocking.js';
import { BLOCKING_VERSION, refreshBlockingColumns, type BlockingColumnsStore } from './refresh-blocking.js';

const person = (key: string, address: string, lastName = 'Doe'): NewPerson => ({
  personKey: key,
  firstName: 'Jane',
  middleName: null,
  lastName,
  address,
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  fields: {},
  interests: [],
  emails: [`${key}@example.com`],
});

/** What the street parser of migration 0005 said of rural-delivery boxes: no house number. */
const olderCode = (p: { firstName: string; lastName: string; address: string }) =>
  /^RD\b/.test(p.address) ? { ...personBlockingColumns(p), houseNumber: '' } : personBlockingColumns(p);

/** Six people stored by the older code, version 1, two of them with a form it did not read. */
async function storedByOlderCode(): Promise<MemoryPeopleStore> {
  const store = new MemoryPeopleStore();
  const people = [
    person('a', '12 Main St'),
    person('b', 'RD 12 PO 5'),
    person('c', '40 Elm St', 'Smith'),
    person('d', '7 Oak Ave'),
    person('e', 'RD 3 Box 77'),
    person('f', '9 Pine Rd'),
  ];
  await store.upsert(preparePeople(people, olderCode));
  await store.setBlockingVersion(1);
  return store;
}

describe('refreshBlockingColumns', () => {
  it('re-derives columns older code stored, in batches, rewrites only the people whose columns changed, and records the version', async () => {
    const store = await storedByOlderCode();
    const writes: number[][] = [];
    const watched: BlockingColumnsStore = {
      blockingVersion: () => store.blockingVersion(),
      blockingRows: (after, limit) => store.blockingRows(after, limit),
      setBlockingVersion: (version) => store.setBlockingVersion(version),
      setBlockingColumns: async (rows) => {
        writes.push(rows.map((r) => r.id));
        return store.setBlockingColumns(rows);
      },
    };
    expect(await store.findCandidates([{ kind: 'zip-house', zip5: '62701', houseNumber: '5' }])).toEqual([]);
    expect(await refreshBlockingColumns(watched, 4)).toEqual({ from: 1, to: BLOCKING_VERSION, scanned: 6, rewritten: 2 });
    // One write for each batch that held a change: b in the first four, e in the last two.
    expect(writes).toEqual([[2], [5]]);
    expect(await store.blockingVersion()).toBe(BLOCKING_VERSION);
    expect((await store.findCandidates([{ kind: 'zip-house', zip5: '62701', houseNumber: '5' }])).map((p) => p.personKey)).toEqual(['b']);
    expect((await store.findCandidates([{ kind: 'zip-house', zip5: '62701', houseNumber: '77' }])).map((p) => p.personKey)).toEqual(['e']);
    // Every stored column is now what the live code derives.
    for (const row of await store.blockingRows(0, 100))
      expect({ houseNumber: row.houseNumber, lastPhonetic: row.lastPhonetic }).toEqual(personBlockingColumns(row));
  });

  it('does nothing when the columns are current or newer (a process of an older release opening a newer store)', async () => {
    const store = await storedByOlderCode();
    await store.setBlockingVersion(BLOCKING_VERSION);
    expect(await refreshBlockingColumns(store)).toBeUndefined();
    expect(await store.findCandidates([{ kind: 'zip-house', zip5: '62701', houseNumber: '5' }])).toEqual([]);
    await store.setBlockingVersion(BLOCKING_VERSION + 1);
    expect(await refreshBlockingColumns(store)).toBeUndefined();
    expect(await store.blockingVersion()).toBe(BLOCKING_VERSION + 1);
  });

  it('runs once: a second open finds the version current; an empty store only records it', async () => {
    const store = await storedByOlderCode();
    expect(await refreshBlockingColumns(store)).toMatchObject({ rewritten: 2 });
    expect(await refreshBlockingColumns(store)).toBeUndefined();
    const empty = new MemoryPeopleStore();
    await empty.setBlockingVersion(1);
    expect(await refreshBlockingColumns(empty)).toEqual({ from: 1, to: BLOCKING_VERSION, scanned: 0, rewritten: 0 });
  });

  it('leaves the version as it was when a write fails, so the next open tries again', async () => {
    const store = await storedByOlderCode();
    const failing: BlockingColumnsStore = {
      blockingVersion: () => store.blockingVersion(),
      blockingRows: (after, limit) => store.blockingRows(after, limit),
      setBlockingVersion: (version) => store.setBlockingVersion(version),
      setBlockingColumns: async () => {
        throw new Error('disk full');
      },
    };
    await expect(refreshBlockingColumns(failing)).rejects.toThrow('disk full');
    expect(await store.blockingVersion()).toBe(1);
    expect(await refreshBlockingColumns(store)).toMatchObject({ from: 1, rewritten: 2 });
  });
});
