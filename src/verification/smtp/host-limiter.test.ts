import { describe, expect, it } from 'vitest';
import { createHostLimiter } from './host-limiter.js';

const later = (ms: number) => Date.now() + ms;

describe('host limiter', () => {
  it('grants up to the limit per host, case-insensitively, and others independently', async () => {
    const limiter = createHostLimiter(2);
    const a = await limiter.acquire('MX.example.com', later(1000));
    const b = await limiter.acquire('mx.example.com', later(1000));
    const other = await limiter.acquire('mx.other.com', later(1000));
    expect([a, b, other].every(Boolean)).toBe(true);
    expect(limiter.active('mx.example.com')).toBe(2);
    expect(limiter.active('mx.other.com')).toBe(1);
  });

  it('queues past the limit and hands slots over in order', async () => {
    const limiter = createHostLimiter(1);
    const first = (await limiter.acquire('h', later(1000)))!;
    const order: string[] = [];
    const second = limiter.acquire('h', later(1000)).then((release) => (order.push('second'), release));
    const third = limiter.acquire('h', later(1000)).then((release) => (order.push('third'), release));
    first();
    (await second)!();
    (await third)!();
    expect(order).toEqual(['second', 'third']);
    expect(limiter.active('h')).toBe(0);
  });

  it('gives up at the deadline and leaves the queue clean', async () => {
    const limiter = createHostLimiter(1);
    const first = (await limiter.acquire('h', later(1000)))!;
    const started = Date.now();
    expect(await limiter.acquire('h', later(50))).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(await limiter.acquire('h', Date.now() - 1)).toBeNull();
    first();
    expect(limiter.active('h')).toBe(0);
    expect(await limiter.acquire('h', later(10))).not.toBeNull();
  });

  it('ignores a second release', async () => {
    const limiter = createHostLimiter(2);
    const a = (await limiter.acquire('h', later(100)))!;
    await limiter.acquire('h', later(100));
    a();
    a();
    expect(limiter.active('h')).toBe(1);
  });

  it("holds a host to its own limit when the caller gives one (its provider profile's)", async () => {
    const limiter = createHostLimiter(2);
    expect(await limiter.acquire('ONE.example', later(1000), 1)).not.toBeNull();
    expect(await limiter.acquire('one.example', later(20), 1)).toBeNull();
    for (let i = 0; i < 3; i++) expect(await limiter.acquire('three.example', later(1000), 3)).not.toBeNull();
    expect(await limiter.acquire('three.example', later(20), 3)).toBeNull();
    expect(limiter.active('three.example')).toBe(3);
  });

  it('rejects a limit that is not a positive integer', async () => {
    expect(() => createHostLimiter(0)).toThrow();
    expect(() => createHostLimiter(1.5)).toThrow();
    await expect(async () => createHostLimiter(2).acquire('h', later(10), 0)).rejects.toThrow(
      'maxPerHost must be a positive integer, got 0',
    );
  });
});
