import { describe, expect, it } from 'vitest';
import { openMemoryStorage } from '../storage/open-storage.js';
import { createKey } from './key-admin.js';
import type { SharedQuota } from './usage-store.js';
import { createUsageMeter } from './usage-meter.js';

const clock = { now: () => Date.parse('2026-11-22T10:00:00Z') };

describe('usage meter', () => {
  it('reserves calls against the quota before and after a flush, all or nothing', async () => {
    const storage = openMemoryStorage();
    const { record } = await createKey(storage.keys, 'q', { quota: '3' });
    const meter = createUsageMeter({ keys: storage.keys, usage: storage.usage, clock, flushMs: 60_000 });
    expect(meter.reserve(record, 1)).toBe(true);
    meter.record(record, { verification: 1 });
    expect(meter.reserve(record, 1)).toBe(true);
    meter.record(record, { verification: 1 });
    await meter.flush();
    // Two of three used: a bulk call of two records does not fit, and counts nothing.
    expect(meter.reserve(record, 2)).toBe(false);
    expect(meter.reserve(record, 1)).toBe(true);
    meter.record(record, { verification: 1 });
    expect(meter.reserve(record, 1)).toBe(false);
    await meter.close();
    expect((await storage.keys.findByName('q'))?.callsUsed).toBe(3);
    expect(await storage.usage.totals(record.id)).toMatchObject({ verification: 3, enrichment_field: 0 });
  });

  it('reserves through the shared count when there is one, and on its own while it is out of reach', async () => {
    const storage = openMemoryStorage();
    const { record } = await createKey(storage.keys, 's', { quota: '2' });
    const unlimited = (await createKey(storage.keys, 'u', {})).record;
    let reachable = true;
    let othersUsed = 1; // another process's calls, not yet in the database
    const asked: number[][] = [];
    const shared: SharedQuota = {
      async reserve(keyId, quota, calls, floor) {
        asked.push([keyId, quota, calls, floor]);
        if (!reachable) throw new Error('no answer from Redis within 500 ms');
        if (Math.max(othersUsed, floor) + calls > quota) return false;
        othersUsed = Math.max(othersUsed, floor) + calls;
        return true;
      },
      release: async () => undefined,
    };
    const meter = createUsageMeter({ keys: storage.keys, usage: storage.usage, clock, flushMs: 60_000, shared });
    expect(await meter.reserve(record, 1)).toBe(true);
    // The shared count says the quota is spent, though this process counted one call only.
    expect(await meter.reserve(record, 1)).toBe(false);
    expect(asked).toEqual([
      [record.id, 2, 1, 0],
      [record.id, 2, 1, 0],
    ]);
    // Out of reach: this process's own check (one of two used here), the documented bound.
    reachable = false;
    expect(await meter.reserve(record, 1)).toBe(true);
    expect(await meter.reserve(record, 1)).toBe(false);
    // A key without a quota never asks.
    expect(meter.reserve(unlimited, 1)).toBe(true);
    expect(asked).toHaveLength(4);
    await meter.close();
  });

  it('keeps counts that failed to flush', async () => {
    const storage = openMemoryStorage();
    const { record } = await createKey(storage.keys, 'f', {});
    let failing = true;
    const usage = {
      add: async (...args: Parameters<typeof storage.usage.add>) => {
        if (failing) throw new Error('database away');
        return storage.usage.add(...args);
      },
      totals: storage.usage.totals.bind(storage.usage),
    };
    const meter = createUsageMeter({ keys: storage.keys, usage, clock, flushMs: 60_000 });
    meter.reserve(record, 1);
    meter.record(record, { enrichment_field: 4 });
    await expect(meter.flush()).rejects.toThrow('database away');
    failing = false;
    await meter.close();
    expect((await storage.usage.totals(record.id)).enrichment_field).toBe(4);
    expect((await storage.keys.findByName('f'))?.callsUsed).toBe(1);
  });

  it('lets unlimited keys through', async () => {
    const storage = openMemoryStorage();
    const { record } = await createKey(storage.keys, 'u', {});
    const meter = createUsageMeter({ keys: storage.keys, usage: storage.usage, clock });
    for (let i = 0; i < 100; i++) expect(meter.reserve(record, 50)).toBe(true);
    await meter.close();
    expect((await storage.keys.findByName('u'))?.callsUsed).toBe(5000);
  });

  it('gives back calls whose work ended in an error', async () => {
    const storage = openMemoryStorage();
    const { record } = await createKey(storage.keys, 'r', { quota: '2' });
    const meter = createUsageMeter({ keys: storage.keys, usage: storage.usage, clock, flushMs: 60_000 });
    expect(meter.reserve(record, 2)).toBe(true);
    meter.release(record, 2);
    expect(meter.reserve(record, 1)).toBe(true);
    await meter.close();
    expect((await storage.keys.findByName('r'))?.callsUsed).toBe(1);
  });

  it('never bills a call given back after a flush wrote it', async () => {
    const storage = openMemoryStorage();
    const { record } = await createKey(storage.keys, 'g', { quota: '5' });
    const meter = createUsageMeter({ keys: storage.keys, usage: storage.usage, clock, flushMs: 60_000 });
    expect(meter.reserve(record, 3)).toBe(true);
    expect(meter.reserve(record, 1)).toBe(true);
    // The flush runs while the second request is still at work; then that request fails.
    await meter.flush();
    meter.release(record, 1);
    expect(meter.reserve(record, 2)).toBe(true);
    expect(meter.reserve(record, 1)).toBe(false);
    await meter.close();
    expect((await storage.keys.findByName('g'))?.callsUsed).toBe(5);
  });
});
