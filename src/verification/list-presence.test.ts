import { describe, expect, it } from 'vitest';
import { openMemoryStorage } from '../storage/open-storage.js';
import { createListPresence } from './list-presence.js';

describe('list presence', () => {
  it('remembers for the TTL whether lists exist, per key', async () => {
    const storage = openMemoryStorage();
    let now = 0;
    const presence = createListPresence(storage.policy, storage.clientLists, { now: () => now }, 5_000);
    expect(await presence.policy()).toBe(false);
    expect(await presence.client(1)).toBe(false);
    await storage.policy.add([{ kind: 'trap', value: 'x.com' }]);
    await storage.clientLists.add(1, [{ kind: 'suppression', value: 'y.com' }]);
    now += 4_999;
    expect(await presence.policy()).toBe(false);
    expect(await presence.client(1)).toBe(false);
    now += 2;
    expect(await presence.policy()).toBe(true);
    expect(await presence.client(1)).toBe(true);
    expect(await presence.client(2)).toBe(false);
  });
});
