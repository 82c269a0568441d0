import { describe, expect, it } from 'vitest';
import type { CatchAllFact } from './decide-mailbox.js';
import { createMemoryFactCache } from './fact-cache.js';
import { CATCH_ALL_TTL_MS, runMailboxStage } from './mailbox-stage.js';
import type { RecipientReply, SmtpProber } from './smtp/prober.js';

/** A clock the test moves by hand. */
function fakeClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('createMemoryFactCache', () => {
  it('returns a value until its TTL runs out, and nothing from then on', async () => {
    const clock = fakeClock();
    const cache = createMemoryFactCache<string>(clock);
    await cache.set('example.com', 'yes', 1_000);
    expect(await cache.get('example.com')).toBe('yes');
    clock.advance(999);
    expect(await cache.get('example.com')).toBe('yes');
    // Expiry is inclusive: at exactly set time + TTL the entry is gone.
    clock.advance(1);
    expect(await cache.get('example.com')).toBeUndefined();
    // Gone for good: a clock stepping back (NTP) does not revive it; it was deleted, not hidden.
    clock.advance(-500);
    expect(await cache.get('example.com')).toBeUndefined();
  });

  it('keeps a separate expiry per key, and a re-set restarts the TTL', async () => {
    const clock = fakeClock();
    const cache = createMemoryFactCache<number>(clock);
    await cache.set('short', 1, 100);
    await cache.set('long', 2, 10_000);
    clock.advance(100);
    expect(await cache.get('short')).toBeUndefined();
    expect(await cache.get('long')).toBe(2);
    await cache.set('long', 3, 50);
    clock.advance(49);
    expect(await cache.get('long')).toBe(3);
    clock.advance(1);
    expect(await cache.get('long')).toBeUndefined();
  });

  it('does not store a value with a zero or negative TTL, and keeps the previous one', async () => {
    const clock = fakeClock();
    const cache = createMemoryFactCache<string>(clock);
    await cache.set('zero', 'a', 0);
    await cache.set('negative', 'b', -5);
    expect(await cache.get('zero')).toBeUndefined();
    expect(await cache.get('negative')).toBeUndefined();
    await cache.set('kept', 'old', 1_000);
    await cache.set('kept', 'new', 0);
    expect(await cache.get('kept')).toBe('old');
  });

  it('holds at most maxEntries, dropping the oldest insertion first', async () => {
    const clock = fakeClock();
    const cache = createMemoryFactCache<number>(clock, 3);
    for (const [i, key] of ['a', 'b', 'c'].entries()) await cache.set(key, i, 60_000);
    // Re-setting `a` makes it the newest, so `b` is now the oldest.
    await cache.set('a', 10, 60_000);
    await cache.set('d', 3, 60_000);
    expect(await cache.get('b')).toBeUndefined();
    expect(await cache.get('a')).toBe(10);
    expect(await cache.get('c')).toBe(2);
    expect(await cache.get('d')).toBe(3);
    // Insertion order now c, a, d; a read does not refresh an entry (oldest set, not least used).
    await cache.set('e', 4, 60_000);
    expect(await cache.get('c')).toBeUndefined();
    expect([await cache.get('a'), await cache.get('d'), await cache.get('e')]).toEqual([10, 3, 4]);
  });

  it('never holds more than maxEntries over many distinct keys', async () => {
    const clock = fakeClock();
    const cache = createMemoryFactCache<number>(clock, 10);
    for (let i = 0; i < 1_000; i++) await cache.set(`k${i}`, i, 60_000);
    const present: number[] = [];
    for (let i = 0; i < 1_000; i++) if ((await cache.get(`k${i}`)) !== undefined) present.push(i);
    expect(present).toEqual([990, 991, 992, 993, 994, 995, 996, 997, 998, 999]);
  });
});

describe('the catch-all fact in a memory cache', () => {
  const accepted: RecipientReply = { class: 'accepted', greylisted: false, code: 250, enhanced: '2.1.5', text: 'OK', stage: 'rcpt' };

  /** An accept-all server: every recipient 250. Counts sessions. */
  function acceptAllProber() {
    const sessions: string[][] = [];
    const prober: SmtpProber = {
      probe: async (_target, recipients) => {
        sessions.push([...recipients]);
        return {
          kind: 'replies',
          replies: new Map(recipients.map((r) => [r, accepted])),
          tls: false,
          smtputf8: true,
          address: '192.0.2.1',
        };
      },
    };
    return { prober, sessions };
  }

  it('is learned once, answers 45 without a probe for a day, then expires and is probed again', async () => {
    const clock = fakeClock();
    const catchAll = createMemoryFactCache<CatchAllFact>(clock);
    const { prober, sessions } = acceptAllProber();
    const deps = { prober, catchAll, greylistRetryMs: 0, randomLocalPart: () => 'zq7random' };
    const target = (local: string) => ({
      recipient: `${local}@catch-all.example`,
      asciiDomain: 'catch-all.example',
      hosts: [{ host: 'mx.catch-all.example', addresses: ['192.0.2.1'] }],
    });
    const deadline = Date.now() + 60_000;

    expect((await runMailboxStage(deps, target('first'), deadline)).code).toBe(45);
    expect(sessions).toEqual([['first@catch-all.example', 'zq7random@catch-all.example']]);
    expect(await catchAll.get('catch-all.example')).toBe('yes');

    clock.advance(CATCH_ALL_TTL_MS - 1);
    expect((await runMailboxStage(deps, target('second'), deadline)).code).toBe(45);
    expect(sessions).toHaveLength(1);

    clock.advance(1);
    expect(await catchAll.get('catch-all.example')).toBeUndefined();
    expect((await runMailboxStage(deps, target('third'), deadline)).code).toBe(45);
    expect(sessions).toEqual([
      ['first@catch-all.example', 'zq7random@catch-all.example'],
      ['third@catch-all.example', 'zq7random@catch-all.example'],
    ]);
    expect(CATCH_ALL_TTL_MS).toBe(24 * 3600_000);
  });
});
