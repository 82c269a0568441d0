/**
 * Issue 31 (3): the BullMQ list queue is fair between keys without BullMQ Pro's groups. One key's
 * backlog of lists holds its share of a worker, and another key's list, queued after all of
 * them, runs at once: it gets the priority of a key's first list, and a job of a key at its cap
 * goes back to wait (delayed) instead of holding a slot. Runs where MAILSURE_TEST_REDIS_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
import type { ListRunner } from '../../src/lists/pipeline/list-queue.js';
import { createBullListQueue } from '../../src/storage/redis/bull-list-queue.js';
import { claimRedisDb, type OwnRedisDb } from '../helpers/redis-db.js';
import { until } from '../helpers/until.js';

const redisUrl = process.env.MAILSURE_TEST_REDIS_URL;

describe.skipIf(!redisUrl)('the BullMQ list queue between keys', () => {
  const prefix = `mailsure-fair-${process.pid}`;
  let own: OwnRedisDb;
  let url: string;

  beforeAll(async () => {
    own = await claimRedisDb(redisUrl!);
    url = own.url;
  });
  afterAll(() => own?.release());

  it("runs a second key's list at once behind one key's backlog, each key at most `concurrency` at a time", async () => {
    const started: number[] = [];
    const ends = new Map<number, () => void>();
    let startedB!: () => void;
    const bStarted = new Promise<void>((resolve) => (startedB = resolve));
    const runner: ListRunner = {
      run: (id) =>
        new Promise<void>((resolve) => {
          started.push(id);
          ends.set(id, resolve);
          if (id === 100) startedB();
        }),
      stop() {},
    };
    const keyOf = (id: number) => (id >= 100 ? 2 : 1);
    const queued = new Map<number, number>();
    const queue = createBullListQueue({
      redisUrl: url,
      prefix,
      logger: createLogger('silent'),
      shares: 1,
      store: {
        unfinished: async () => [],
        // A key's lists so far, this one included: its n-th list gets priority n.
        waitingForKey: async (keyId) => {
          queued.set(keyId, (queued.get(keyId) ?? 0) + 1);
          return queued.get(keyId)!;
        },
      },
      worker: { runner, concurrency: 1 },
      busyKeyDelayMs: 50,
    });
    try {
      for (let id = 1; id <= 8; id++) queue.enqueue({ id, keyId: keyOf(id) });
      // Let key 1's lists be queued first, all of them.
      await until(async () => {
        const counts = await queue.jobCounts();
        return counts.waiting + counts.active >= 8;
      }, "key 1's eight lists queued");
      queue.enqueue({ id: 100, keyId: 2 });
      await bStarted;
      // Key 1 never had more than its one run at a time; key 2's list did not wait for them.
      expect(started.filter((id) => keyOf(id) === 1)).toHaveLength(1);
      expect(started).toContain(100);
    } finally {
      for (const end of ends.values()) end();
      await queue.close();
    }
  }, 30_000);
});
