import { describe, expect, it } from 'vitest';
import { newList } from '../../storage/contract/fixtures.js';
import { MemoryListStore } from '../../storage/memory/memory-list-store.js';
import type { ListRow, ListStore } from '../list-record.js';
import { applyEvent } from './list-events.js';

/** A report list whose verification is done and whose enrichment is finishing: it waits Processed. */
async function reportList(store: ListStore): Promise<ListRow> {
  const list = await store.create(newList(1, { report: true }));
  const services = {
    email_validation: { status: 'Completed' as const, inputCount: 3, completedCount: 3 },
    email_intelligence: { status: 'Processing' as const, inputCount: 3 },
  };
  return (await store.update(list.id, { status: 'Processed', records: 3, services, plan: {} }))!;
}

/** The store, with the next read of the list held until `release` (one writer pauses between its read and its write). */
function pausingReads(inner: ListStore) {
  let hold: Promise<void> | undefined;
  let release = () => {};
  let paused = () => {};
  const readPaused = new Promise<void>((resolve) => (paused = resolve));
  const store: ListStore = Object.create(inner);
  store.get = async (id) => {
    const list = await inner.get(id);
    if (hold) {
      const waiting = hold;
      hold = undefined;
      paused();
      await waiting;
    }
    return list;
  };
  return {
    store,
    holdNextRead() {
      hold = new Promise<void>((resolve) => (release = resolve));
    },
    readPaused,
    release: () => release(),
  };
}

describe('applyEvent', () => {
  it('keeps a purchase that lands between a worker reading the list and completing its last service (the list goes on to Processing)', async () => {
    const memory = new MemoryListStore();
    const list = await reportList(memory);
    const paused = pausingReads(memory);
    paused.holdNextRead();
    // The worker reads the list (no purchase yet) and stops before its write…
    const completing = applyEvent(paused.store, list.id, { type: 'service_completed', service: 'email_intelligence' });
    await paused.readPaused;
    // …the customer buys meanwhile (the status stays Processed: enrichment is still running)…
    const bought = await applyEvent(memory, list.id, { type: 'purchase' }, () => ({ purchase: { fields: ['age'] } }));
    expect(bought).toMatchObject({ status: 'Processed', purchase: { fields: ['age'] } });
    // …and the worker's write, decided from the row before the purchase, must not stand.
    paused.release();
    expect(await completing).toMatchObject({ status: 'Processing', purchase: { fields: ['age'] } });
    expect(await memory.get(list.id)).toMatchObject({
      status: 'Processing',
      purchase: { fields: ['age'] },
      services: { email_intelligence: { status: 'Completed' } },
    });
  });

  it('keeps a service completed between a cancel reading the list and writing it (the cancel decides again)', async () => {
    const memory = new MemoryListStore();
    const list = await reportList(memory);
    const paused = pausingReads(memory);
    paused.holdNextRead();
    const cancelling = applyEvent(paused.store, list.id, { type: 'cancel' });
    await paused.readPaused;
    await applyEvent(memory, list.id, { type: 'service_completed', service: 'email_intelligence' });
    paused.release();
    // Enrichment completed is kept (a cancel stops only what had not finished).
    expect(await cancelling).toMatchObject({
      status: 'Cancelled',
      services: { email_validation: { status: 'Completed' }, email_intelligence: { status: 'Completed' } },
    });
  });

  it('answers undefined when the event does not apply, and gives up on a list that keeps changing', async () => {
    const memory = new MemoryListStore();
    const list = await reportList(memory);
    expect(await applyEvent(memory, list.id, { type: 'results_written' })).toBeUndefined();
    expect(await applyEvent(memory, list.id + 1, { type: 'cancel' })).toBeUndefined();
    const busy: ListStore = Object.create(memory);
    busy.get = async (id) => {
      const read = await memory.get(id);
      await memory.update(id, {});
      return read;
    };
    await expect(applyEvent(busy, list.id, { type: 'cancel' })).rejects.toThrow(
      `list ${list.id}: could not apply cancel (the list kept changing)`,
    );
    expect((await memory.get(list.id))!.status).toBe('Processed');
  });
});
