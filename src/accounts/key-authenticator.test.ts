import { describe, expect, it } from 'vitest';
import { openMemoryStorage } from '../storage/open-storage.js';
import { createKey } from './key-admin.js';
import { createKeyAuthenticator, NOT_CACHED } from './key-authenticator.js';

describe('key authenticator', () => {
  it('finds active keys and refuses unknown, malformed and revoked ones', async () => {
    const storage = openMemoryStorage();
    let now = 0;
    const auth = createKeyAuthenticator(storage.keys, { now: () => now }, 1_000);
    const { key, record } = await createKey(storage.keys, 'a', {});
    expect((await auth.authenticate(key))?.id).toBe(record.id);
    expect(await auth.authenticate(undefined)).toBeUndefined();
    expect(await auth.authenticate('')).toBeUndefined();
    expect(await auth.authenticate(`${key}x`)).toBeUndefined();
    expect(await auth.authenticate('not a key')).toBeUndefined();

    await storage.keys.revoke('a', new Date().toISOString());
    expect(await auth.authenticate(key)).toBeDefined(); // cached for the TTL
    now += 1_001;
    expect(await auth.authenticate(key)).toBeUndefined();
  });

  it('caches unknown keys so a flood of them is not a flood of queries', async () => {
    const storage = openMemoryStorage();
    let lookups = 0;
    const keys = { ...storage.keys, findByHash: async (h: string) => (lookups++, storage.keys.findByHash(h)) };
    const auth = createKeyAuthenticator(keys, { now: () => 0 });
    for (let i = 0; i < 50; i++) await auth.authenticate('ms_unknownunknownunknown');
    expect(lookups).toBe(1);
  });

  it('peeks: the cached answer without a wait, NOT_CACHED before the first lookup and after the TTL', async () => {
    const storage = openMemoryStorage();
    let now = 0;
    const auth = createKeyAuthenticator(storage.keys, { now: () => now }, 1_000);
    const { key, record } = await createKey(storage.keys, 'a', {});
    expect(auth.peek(key)).toBe(NOT_CACHED);
    expect(auth.peek(undefined)).toBeUndefined();
    expect(auth.peek('not a key')).toBeUndefined();
    await auth.authenticate(key);
    expect((auth.peek(key) as { id: number }).id).toBe(record.id);
    expect(auth.peek(`${key}x`)).toBe(NOT_CACHED);
    await auth.authenticate(`${key}x`);
    expect(auth.peek(`${key}x`)).toBeUndefined();

    await storage.keys.revoke('a', new Date().toISOString());
    now += 1_001;
    expect(auth.peek(key)).toBe(NOT_CACHED);
    await auth.authenticate(key);
    expect(auth.peek(key)).toBeUndefined();
  });
});
