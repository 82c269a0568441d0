import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createBulkSlots } from './bulk-slots.js';

describe('bulk calls in progress per key', () => {
  it('gives a key at most `max` slots, apart from other keys, and each back once', async () => {
    const slots = createBulkSlots(2, null, { prefix: 'test' });
    const first = await slots.take(1);
    const second = await slots.take(1);
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(await slots.take(1)).toBeNull();
    expect(await slots.take(2)).not.toBeNull();
    expect(slots.held(1)).toBe(2);
    first!();
    first!();
    expect(slots.held(1)).toBe(1);
    expect(await slots.take(1)).not.toBeNull();
    expect(await slots.take(1)).toBeNull();
  });

  it('refuses a cap that is not a positive whole number', () => {
    expect(() => createBulkSlots(0, null, { prefix: 'test' })).toThrow('bulk calls per key must be a positive integer, got 0');
  });

  it('holds the cap in this process when Redis is not there', async () => {
    const dead = new Redis({
      host: '127.0.0.1',
      port: 1,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    dead.on('error', () => undefined);
    const slots = createBulkSlots(1, dead, { prefix: 'test' });
    const release = await slots.take(7);
    expect(release).not.toBeNull();
    expect(await slots.take(7)).toBeNull();
    release!();
    expect(slots.held(7)).toBe(0);
    expect(await slots.take(7)).not.toBeNull();
    dead.disconnect();
  });
});
