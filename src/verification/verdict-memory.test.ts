import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createMemoryFactCache } from './fact-cache.js';
import type { VerdictLimit } from './health/health-state.js';
import {
  createVerdictMemory,
  verdictMemoryGeneration,
  verdictMemoryKey,
  type MailboxOutcome,
  type RememberedVerdict,
  type VerdictStore,
} from './verdict-memory.js';

/** A clock the test moves by hand. */
function fakeClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

const HOUR = 3_600_000;
const TTL = { 50: 168 * HOUR, 400: 48 * HOUR, 410: 12 * HOUR };

/** The in-process store, and every write it received: what the memory ever gave it to hold. */
function recordedStore(clock: { now(): number }) {
  const inner = createMemoryFactCache<RememberedVerdict>(clock);
  const writes: { id: string; code: number; ttlMs: number }[] = [];
  const store: VerdictStore = {
    get: (id) => inner.get(id),
    set: async (id, remembered, ttlMs) => {
      writes.push({ id, code: remembered.code, ttlMs });
      await inner.set(id, remembered, ttlMs);
    },
  };
  return { store, writes };
}

function memoryWith(scope: 'key' | 'shared' = 'key', secret = randomBytes(32)) {
  const clock = fakeClock();
  const { store, writes } = recordedStore(clock);
  const memory = createVerdictMemory(store, verdictMemoryKey(secret), { ttlMs: TTL, scope }, clock);
  const probe = (address: string, outcome: MailboxOutcome, keyId: number | undefined = 1) =>
    memory.probe(address, keyId, clock.now() + 10_000, async () => outcome);
  return { memory, clock, store, writes, probe };
}

describe('the verdict memory', () => {
  it('remembers 50, 400 and 410 for their class’s time, and nothing else', async () => {
    const { memory, clock, probe } = memoryWith();
    await probe('alice@example.com', { code: 50 });
    await probe('nobody@example.com', { code: 400 });
    await probe('full@example.com', { code: 410 });
    for (const code of [5, 20, 45, 420, 510] as const) await probe(`c${code}@example.com`, { code });
    expect((await memory.recall('alice@example.com', 1))?.code).toBe(50);
    expect((await memory.recall('nobody@example.com', 1))?.code).toBe(400);
    expect((await memory.recall('full@example.com', 1))?.code).toBe(410);
    for (const code of [5, 20, 45, 420, 510]) expect(await memory.recall(`c${code}@example.com`, 1)).toBeUndefined();

    clock.advance(12 * HOUR);
    expect(await memory.recall('full@example.com', 1)).toBeUndefined();
    expect((await memory.recall('nobody@example.com', 1))?.code).toBe(400);
    clock.advance(36 * HOUR);
    expect(await memory.recall('nobody@example.com', 1)).toBeUndefined();
    expect((await memory.recall('alice@example.com', 1))?.code).toBe(50);
    clock.advance(120 * HOUR);
    expect(await memory.recall('alice@example.com', 1)).toBeUndefined();
  });

  it('never remembers a verdict our own network limited or a throttle gave, whatever its code', async () => {
    const { memory, writes, probe } = memoryWith();
    const limits: VerdictLimit[] = ['resolver', 'smtp-egress', 'reputation', 'throttled'];
    for (const limit of limits) for (const code of [50, 400, 410] as const) await probe(`${limit}${code}@example.com`, { code, limit });
    expect(writes).toEqual([]);
    for (const limit of limits) expect(await memory.recall(`${limit}400@example.com`, 1)).toBeUndefined();
  });

  it('does not remember a class whose time is 0', async () => {
    const clock = fakeClock();
    const { store, writes } = recordedStore(clock);
    const memory = createVerdictMemory(store, verdictMemoryKey(randomBytes(32)), { ttlMs: { ...TTL, 400: 0 }, scope: 'key' }, clock);
    await memory.probe('nobody@example.com', 1, clock.now() + 1_000, async () => ({ code: 400 }));
    expect(writes).toEqual([]);
  });

  it('keeps each key’s verdicts to itself, unless shared', async () => {
    const perKey = memoryWith('key');
    await perKey.probe('alice@example.com', { code: 50 }, 1);
    expect((await perKey.memory.recall('alice@example.com', 1))?.code).toBe(50);
    expect(await perKey.memory.recall('alice@example.com', 2)).toBeUndefined();
    expect(await perKey.memory.recall('alice@example.com', undefined)).toBeUndefined();
    const shared = memoryWith('shared');
    await shared.probe('alice@example.com', { code: 50 }, 1);
    expect((await shared.memory.recall('alice@example.com', 2))?.code).toBe(50);
  });

  it('holds no address, local part, domain or reply: an opaque id and the code', async () => {
    const { writes, probe } = memoryWith();
    const addresses = ['alice@example.com', 'nobody@example.com', 'full@mailbox-full.net'];
    // A mailbox stage's outcome never carries the reply; whatever else came with one is not kept.
    const withReply = (code: 50 | 400 | 410) =>
      ({ code, text: '5.1.1 <nobody@example.com>: Recipient address rejected' }) as MailboxOutcome;
    await probe(addresses[0]!, withReply(50));
    await probe(addresses[1]!, withReply(400));
    await probe(addresses[2]!, withReply(410));
    expect(writes.map((w) => w.code)).toEqual([50, 400, 410]);
    for (const { id, code } of writes) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(typeof code).toBe('number');
      for (const address of addresses) {
        const [local, domain] = address.split('@') as [string, string];
        for (const part of [address, local, domain, 'Recipient']) expect(id).not.toContain(part);
      }
    }
  });

  it('under another server secret finds nothing (rotating the secret empties it), and its key is not the secret', async () => {
    const secret = randomBytes(32);
    const clock = fakeClock();
    const { store } = recordedStore(clock);
    const before = createVerdictMemory(store, verdictMemoryKey(secret), { ttlMs: TTL, scope: 'key' }, clock);
    await before.probe('alice@example.com', 1, clock.now() + 1_000, async () => ({ code: 50 }));
    expect((await before.recall('alice@example.com', 1))?.code).toBe(50);
    const after = createVerdictMemory(store, verdictMemoryKey(randomBytes(32)), { ttlMs: TTL, scope: 'key' }, clock);
    expect(await after.recall('alice@example.com', 1)).toBeUndefined();

    const key = verdictMemoryKey(secret);
    expect(key).toHaveLength(32);
    expect(key.equals(secret)).toBe(false);
    expect(verdictMemoryKey(secret).equals(key)).toBe(true);
    expect(verdictMemoryGeneration(key)).toMatch(/^[0-9a-f]{16}$/);
    expect(verdictMemoryGeneration(key)).not.toBe(verdictMemoryGeneration(verdictMemoryKey(randomBytes(32))));
  });

  it('lets a second caller for an address being probed wait for that probe: one probe, unless it was not definitive', async () => {
    const { memory, clock } = memoryWith();
    let runs = 0;
    let finish!: (outcome: MailboxOutcome) => void;
    const slow = () => (runs++, new Promise<MailboxOutcome>((resolve) => (finish = resolve)));
    const first = memory.probe('alice@example.com', 1, clock.now() + 10_000, slow);
    const second = memory.probe('alice@example.com', 1, clock.now() + 10_000, async () => (runs++, { code: 400 }));
    // Another key does not wait: its scope is its own.
    expect(await memory.probe('alice@example.com', 2, clock.now() + 10_000, async () => (runs++, { code: 50 }))).toEqual({ code: 50 });
    finish({ code: 50 });
    expect(await first).toEqual({ code: 50 });
    expect(await second).toEqual({ code: 50 });
    expect(runs).toBe(2);

    // A throttled probe is nobody else's answer: the waiter probes for itself.
    const third = memory.probe('bob@example.com', 1, clock.now() + 10_000, slow);
    const fourth = memory.probe('bob@example.com', 1, clock.now() + 10_000, async () => (runs++, { code: 50 }));
    finish({ code: 20, limit: 'throttled' });
    expect(await third).toEqual({ code: 20, limit: 'throttled' });
    expect(await fourth).toEqual({ code: 50 });
    expect(runs).toBe(4);
  });

  it('answers a waiter whose deadline has passed with 5, without a probe of its own', async () => {
    const { memory, clock } = memoryWith();
    let finish!: (outcome: MailboxOutcome) => void;
    const first = memory.probe(
      'alice@example.com',
      1,
      clock.now() + 10_000,
      () => new Promise<MailboxOutcome>((resolve) => (finish = resolve)),
    );
    let ran = false;
    expect(await memory.probe('alice@example.com', 1, clock.now(), async () => ((ran = true), { code: 50 }))).toEqual({ code: 5 });
    expect(ran).toBe(false);
    finish({ code: 50 });
    await first;
  });
});
