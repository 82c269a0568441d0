/**
 * Verification state shared through a real Redis (scale-out): DNS answers and catch-all facts one
 * process learned are read by another, they expire with their TTL, the per-MX-host SMTP
 * session limit holds across processes (two limiters stand for two processes), and the verdict
 * memory one process filled spares the other a probe, holding no address and at most its cap. Redis that does
 * not answer is a miss, never a failure. Runs where MAILSURE_TEST_REDIS_URL is set (CI); reported
 * as skipped elsewhere.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { openMemoryStorage } from '../../src/storage/open-storage.js';
import { createRedisFactCache } from '../../src/storage/redis/redis-fact-cache.js';
import { createRedisHostLimiter } from '../../src/storage/redis/redis-host-limiter.js';
import { createRedisVerdictStore } from '../../src/storage/redis/redis-verdict-store.js';
import { verdictMemoryKey } from '../../src/verification/verdict-memory.js';
import { createVerification } from '../../src/wiring/verification.js';
import { createCachedDnsClient } from '../../src/verification/dns/cached-dns-client.js';
import type { AddressAnswer, DnsClient, MailRoute } from '../../src/verification/dns/mail-route.js';
import { createBatchingProber } from '../../src/verification/smtp/batch-prober.js';
import { startTestWorld } from '../helpers/world/index.js';

const url = process.env.MAILSURE_TEST_REDIS_URL;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!url)(`verification state shared through Redis${url ? '' : ' (skipped: MAILSURE_TEST_REDIS_URL not set)'}`, () => {
  const clients: Redis[] = [];
  const connect = async () => {
    const client = new Redis(url!);
    clients.push(client);
    await client.ping();
    return client;
  };
  afterAll(() => clients.forEach((c) => c.disconnect()));

  it('a DNS answer one process looked up is the other process’s answer, and expires with its TTL', async () => {
    const namespace = `mailsure-test:${randomUUID()}`;
    let lookups = 0;
    const dns: DnsClient = {
      mailRoute: async () => (lookups++, { kind: 'mx', hosts: [{ name: 'mx.example.net', priority: 10 }] }),
      addresses: async () => (lookups++, { kind: 'addresses', addresses: ['192.0.2.1'], ttlSeconds: 1 }),
      nameServers: async () => (lookups++, ['ns1.example.net']),
    };
    const processFor = async () => {
      const redis = await connect();
      return createCachedDnsClient(dns, {
        routes: createRedisFactCache<MailRoute>(redis, { namespace: `${namespace}:mx`, clock: systemClock }),
        addresses: createRedisFactCache<AddressAnswer>(redis, { namespace: `${namespace}:address`, clock: systemClock }),
        nameServers: createRedisFactCache<string[]>(redis, { namespace: `${namespace}:ns`, clock: systemClock }),
      });
    };
    const [a, b] = [await processFor(), await processFor()];
    const deadline = Date.now() + 5_000;
    expect(await a.mailRoute('example.net', deadline)).toEqual({ kind: 'mx', hosts: [{ name: 'mx.example.net', priority: 10 }] });
    expect(await a.nameServers('example.net', deadline)).toEqual(['ns1.example.net']);
    expect(lookups).toBe(2);
    expect(await b.mailRoute('example.net', deadline)).toEqual({ kind: 'mx', hosts: [{ name: 'mx.example.net', priority: 10 }] });
    expect(await b.nameServers('example.net', deadline)).toEqual(['ns1.example.net']);
    expect(lookups).toBe(2);

    // The address answer lives 30 s at least (MIN_ADDRESS_TTL_MS); the stored TTL is Redis's.
    await a.addresses('mx.example.net', deadline);
    const redis = await connect();
    const ttl = await redis.pttl(`${namespace}:address:mx.example.net`);
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThanOrEqual(30_000);
  });

  it('a fact expires in Redis and in the memory of the process that read it', async () => {
    const namespace = `mailsure-test:${randomUUID()}`;
    const [r1, r2] = [await connect(), await connect()];
    const one = createRedisFactCache<'yes' | 'no'>(r1, { namespace, clock: systemClock });
    const two = createRedisFactCache<'yes' | 'no'>(r2, { namespace, clock: systemClock });
    await one.set('accept-all.example', 'yes', 300);
    expect(await two.get('accept-all.example')).toBe('yes');
    await sleep(400);
    expect(await two.get('accept-all.example')).toBeUndefined();
    expect(await one.get('accept-all.example')).toBeUndefined();
    // Nothing is stored for a TTL of zero.
    await one.set('other.example', 'no', 0);
    expect(await r1.exists(`${namespace}:other.example`)).toBe(0);
  });

  it('a Redis that does not answer is a miss on read, a no-op on write, and leaves the session limit to the process', async () => {
    // Nothing listens on port 1: every command fails at once or times out.
    const dead = new Redis({ port: 1, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    dead.on('error', () => undefined);
    clients.push(dead);
    const cache = createRedisFactCache<string>(dead, { namespace: 'x', clock: systemClock, timeoutMs: 100 });
    const started = Date.now();
    expect(await cache.get('k')).toBeUndefined();
    await cache.set('k', 'v', 60_000);
    // Still remembered in this process.
    expect(await cache.get('k')).toBe('v');
    // The session limit falls back to this process's own.
    const limiter = createRedisHostLimiter(dead, 1, { prefix: 'x' });
    const release = await limiter.acquire('mx.example.net', Date.now() + 2_000);
    expect(release).not.toBeNull();
    expect(await limiter.acquire('mx.example.net', Date.now() + 100)).toBeNull();
    release!();
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('holds the per-host session limit across processes and gives a dead holder’s slot back', async () => {
    const prefix = `mailsure-test:${randomUUID()}`;
    const [a, b] = [
      createRedisHostLimiter(await connect(), 2, { prefix, retryIntervalMs: 10 }),
      createRedisHostLimiter(await connect(), 2, { prefix, retryIntervalMs: 10 }),
    ];
    const soon = () => Date.now() + 2_000;
    const first = await a.acquire('MX.Example.net', soon());
    const second = await b.acquire('mx.example.net', soon());
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    // Each process holds one slot: each would let another in on its own; together they are full.
    expect(await a.acquire('mx.example.net', Date.now() + 150)).toBeNull();
    expect(await b.acquire('mx.example.net', Date.now() + 150)).toBeNull();
    // Other hosts are not affected.
    const other = await b.acquire('mx.other.net', soon());
    expect(other).not.toBeNull();
    other!();

    // A waiter in one process gets the slot a release in the other frees.
    const waiting = b.acquire('mx.example.net', soon());
    await sleep(50);
    first!();
    first!(); // twice is harmless
    const third = await waiting;
    expect(third).not.toBeNull();
    second!();
    third!();

    // A process that died holding a slot: the slot is free once the longest hold and the margin pass.
    const short = createRedisHostLimiter(await connect(), 1, {
      prefix: `${prefix}:dead`,
      maxHoldMs: 300,
      holdMarginMs: 100,
      retryIntervalMs: 10,
    });
    const held = await short.acquire('mx.example.net', Date.now() + 300);
    expect(held).not.toBeNull();
    const survivor = createRedisHostLimiter(await connect(), 1, {
      prefix: `${prefix}:dead`,
      maxHoldMs: 300,
      holdMarginMs: 100,
      retryIntervalMs: 10,
    });
    expect(await survivor.acquire('mx.example.net', Date.now() + 100)).toBeNull();
    const started = Date.now();
    expect(await survivor.acquire('mx.example.net', Date.now() + 3_000)).not.toBeNull();
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("holds each host to its own provider's session limit across processes", async () => {
    const prefix = `mailsure-test:${randomUUID()}`;
    const [a, b] = [
      createRedisHostLimiter(await connect(), 2, { prefix, retryIntervalMs: 10 }),
      createRedisHostLimiter(await connect(), 2, { prefix, retryIntervalMs: 10 }),
    ];
    const one = await a.acquire('MX.yahoo-like.net', Date.now() + 2_000, 1);
    expect(one).not.toBeNull();
    expect(await b.acquire('mx.yahoo-like.net', Date.now() + 150, 1)).toBeNull();
    const three = [
      await a.acquire('mx.wide.net', Date.now() + 2_000, 3),
      await b.acquire('mx.wide.net', Date.now() + 2_000, 3),
      await b.acquire('mx.wide.net', Date.now() + 2_000, 3),
    ];
    expect(three.every(Boolean)).toBe(true);
    expect(await a.acquire('mx.wide.net', Date.now() + 150, 3)).toBeNull();
    [one, ...three].forEach((release) => release!());
  });

  it('a slot is held past the deadline its holder waited with: a newcomer with a short deadline does not push it out', async () => {
    const prefix = `mailsure-test:${randomUUID()}`;
    const holder = createRedisHostLimiter(await connect(), 1, { prefix, holdMarginMs: 100, retryIntervalMs: 10 });
    const other = createRedisHostLimiter(await connect(), 1, { prefix, holdMarginMs: 100, retryIntervalMs: 10 });
    // A list's shared session: a slot got within a probe's deadline, held for longer.
    const held = await holder.acquire('mx.example.net', Date.now() + 100);
    expect(held).not.toBeNull();
    await sleep(400); // past that deadline and the margin, far within MAX_HOLD_MS
    expect(await other.acquire('mx.example.net', Date.now() + 100)).toBeNull();
    held!();
    expect(await other.acquire('mx.example.net', Date.now() + 2_000)).not.toBeNull();
  });

  it('two processes’ batching probers hold the per-host limit together, STARTTLS included', async () => {
    const world = await startTestWorld();
    try {
      const prefix = `mailsure-test:${randomUUID()}`;
      const probers = await Promise.all(
        [0, 1].map(async () =>
          createBatchingProber({
            port: world.smtpPort,
            helo: 'probe.mailsure.com',
            from: 'verify@mailsure.com',
            rcptsPerSession: 5,
            limiter: createRedisHostLimiter(await connect(), 2, { prefix, retryIntervalMs: 10 }),
          }),
        ),
      );
      for (const name of ['starttls', 'acceptAll'] as const) {
        const target = { host: `mx-${name}.world`, addresses: [world.smtpAddress(name)] };
        const outcomes = await Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            probers[i % 2]!.probe(target, [`user${i}@${world.domains.acceptAll}`], Date.now() + 20_000),
          ),
        );
        expect(outcomes.every((outcome) => outcome.kind === 'replies')).toBe(true);
        expect(world.smtp[name].connections).toBeGreaterThanOrEqual(20);
        expect(world.smtp[name].maxActive).toBeLessThanOrEqual(2);
      }
    } finally {
      await world.close();
    }
  });

  it('two processes with two egresses share the verdict memory: one probe per address; Redis holds no address or reply; a new secret empties it', async () => {
    const world = await startTestWorld();
    const dataDir = await mkdtemp(join(tmpdir(), 'mailsure-memory-'));
    try {
      const prefix = `mailsure-test:${randomUUID()}`;
      const sources = ['127.0.0.235', '127.0.0.236'];
      const config = loadConfig({
        ...world.env,
        MAILSURE_VERIFY_DEPTH: 'mailbox',
        MAILSURE_VERDICT_MEMORY: 'on',
        MAILSURE_DATA_DIR: dataDir,
        MAILSURE_SMTP_SOURCE_ADDRESSES: sources.join(','),
      });
      const processWith = async (secret: Buffer) =>
        createVerification({
          config,
          storage: openMemoryStorage(),
          clock: systemClock,
          tuning: { greylistRetryMs: 400, listPresenceTtlMs: 0 },
          shared: { redis: await connect(), prefix },
          memoryKey: verdictMemoryKey(secret),
        }).verify;
      const secret = randomBytes(32);
      const [a, b] = [await processWith(secret), await processWith(secret)];
      const { known, unknown, full452 } = world.addresses;
      const expected = { [known]: 50, [unknown]: 400, [full452]: 410 };
      const options = { timeoutMs: 10_000, key: { id: 1, bouncers: false, corrections: false } };
      const rcpts = (address: string) =>
        [world.smtp.mailboxes, world.smtp.mailboxFull]
          .flatMap((log) => log.sessions.flatMap((s) => s.rcpts))
          .filter((r) => r.address === address).length;
      for (const verify of [a, b, a])
        for (const [email, code] of Object.entries(expected)) expect((await verify.verify(email, options)).code).toBe(code);
      for (const email of Object.keys(expected)) expect(rcpts(email)).toBe(1);
      // Every probe left through an egress of the pool (a source address of its own).
      for (const log of [world.smtp.mailboxes, world.smtp.mailboxFull])
        for (const s of log.sessions) expect(sources).toContain(s.remoteAddress);

      // What Redis holds: opaque ids, codes and when they were learnt, the index of ids and the key's generation; nothing of an address or a reply.
      const redis = await connect();
      const keys = await redis.keys(`${prefix}:verdicts:*`);
      const entries = keys.filter((k) => k.startsWith(`${prefix}:verdicts:v:`));
      expect(entries).toHaveLength(3);
      for (const k of keys) expect(k.slice(prefix.length)).toMatch(/^:verdicts:(v:[A-Za-z0-9_-]{22}|index|generation)$/);
      const values = await Promise.all(entries.map((k) => redis.get(k)));
      expect(values.map((v) => v!.split(' ')[0]).sort()).toEqual(['400', '410', '50']);
      for (const v of values) expect(v).toMatch(/^\d{2,3} \d{13}$/);
      for (const k of entries) expect(await redis.pttl(k)).toBeGreaterThan(11 * 3_600_000);
      const index = await redis.zrange(`${prefix}:verdicts:index`, 0, -1);
      expect(index.sort()).toEqual(entries.map((k) => k.slice(`${prefix}:verdicts:v:`.length)).sort());
      const stored = [...keys, ...values, ...index, (await redis.get(`${prefix}:verdicts:generation`))!].join(' ');
      for (const part of ['alice', 'nobody', 'full', 'mailbox-ok', 'mailbox-full', '5.1.1', '4.2.2', 'unknown', '@'])
        expect(stored).not.toContain(part);

      // A process started with another server secret: everything remembered before is gone, and it probes.
      const c = await processWith(randomBytes(32));
      expect((await c.verify(known, options)).code).toBe(50);
      expect(rcpts(known)).toBe(2);
      expect(await redis.keys(`${prefix}:verdicts:v:*`)).toHaveLength(1);
      expect(await redis.zcard(`${prefix}:verdicts:index`)).toBe(1);
    } finally {
      await world.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('the verdict memory holds at most its cap in Redis, the soonest to expire going first; a Redis that does not answer is a miss', async () => {
    const namespace = `mailsure-test:${randomUUID()}:verdicts`;
    const redis = await connect();
    const store = createRedisVerdictStore(redis, { namespace, maxEntries: 5, generation: 'g1', clock: systemClock });
    // Ten ids, the later ones living longer: the five that expire last stay.
    for (let i = 0; i < 10; i++) await store.set(`id${i}`, { code: 50, at: 1_000 }, 60_000 + i * 1_000);
    expect((await redis.zrange(`${namespace}:index`, 0, -1)).sort()).toEqual(['id5', 'id6', 'id7', 'id8', 'id9']);
    expect((await redis.keys(`${namespace}:v:*`)).sort()).toEqual([5, 6, 7, 8, 9].map((i) => `${namespace}:v:id${i}`));
    expect(await store.get('id0')).toBeUndefined();
    expect(await store.get('id9')).toEqual({ code: 50, at: 1_000 });
    // An entry written before the time was kept reads as its code alone.
    await redis.set(`${namespace}:v:old`, '400');
    expect(await store.get('old')).toEqual({ code: 400 });
    // An expired entry leaves the index at the next write.
    await store.set('short', { code: 400 }, 50);
    await sleep(100);
    expect(await store.get('short')).toBeUndefined();
    await store.set('id10', { code: 410 }, 120_000);
    expect(await redis.zscore(`${namespace}:index`, 'short')).toBeNull();
    expect(await redis.zcard(`${namespace}:index`)).toBe(5);

    const dead = new Redis({ port: 1, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    dead.on('error', () => undefined);
    clients.push(dead);
    const away = createRedisVerdictStore(dead, { namespace, maxEntries: 5, generation: 'g1', clock: systemClock, timeoutMs: 100 });
    await away.set('x', { code: 50 }, 60_000);
    expect(await away.get('x')).toBeUndefined();
  });
});
