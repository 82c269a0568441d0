/**
 * The list queue on Redis (BullMQ) for scale-out: any API process adds jobs, any worker process
 * runs them. A list gets `shares` jobs, so that as many workers can work on it at once; they
 * share its chunks through the store's leases (lists/pipeline/lease.ts). A worker that dies
 * leaves its job stalled; BullMQ hands it to another worker, which resumes from the committed
 * chunks and takes the dead worker's chunks over once their leases end.
 */
import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import type { Logger } from '../../core/logger.js';
import type { ListStore } from '../../lists/list-record.js';
import { KEYS_AT_ONCE, type ListQueue, type QueuedList } from '../../lists/pipeline/list-queue.js';
import type { ListRunner } from '../../lists/pipeline/list-runner.js';

export const LIST_QUEUE_NAME = 'mailsure-lists';

interface ListJob {
  listId: number;
  /** Absent in jobs an earlier version queued. */
  keyId?: number;
}

/** BullMQ's highest priority number (the lowest priority). */
const MAX_PRIORITY = 2_097_152;

export interface BullListQueueOptions {
  redisUrl: string;
  store: Pick<ListStore, 'unfinished' | 'waitingForKey'>;
  logger: Logger;
  /** Jobs per list: how many workers may share one list. */
  shares: number;
  /**
   * Present in worker processes: runs up to `concurrency` jobs of one key at once, and jobs of
   * other keys beside them (KEYS_AT_ONCE × `concurrency` in all), as the embedded queue does.
   */
  worker?: { runner: ListRunner; concurrency: number };
  /** How long a job of a key already at its cap in this worker waits before it is offered again (default 1 s). */
  busyKeyDelayMs?: number;
  /** Redis key prefix (tests isolate themselves with it). */
  prefix?: string;
  /** Longest wait for the queue to close at shutdown (default 10 s). */
  closeWaitMs?: number;
}

export function createBullListQueue(options: BullListQueueOptions): ListQueue {
  // BullMQ needs commands that wait for Redis rather than fail while it reconnects.
  const connection = { url: options.redisUrl, maxRetriesPerRequest: null };
  const prefix = options.prefix ?? 'mailsure';
  const closeWaitMs = options.closeWaitMs ?? 10_000;
  const queue = new Queue<{ listId: number }>(LIST_QUEUE_NAME, { connection, prefix });
  queue.on('error', (error) => options.logger.warn({ err: error }, 'list queue error'));
  let worker: Worker<ListJob> | undefined;
  if (options.worker) {
    const { runner, concurrency } = options.worker;
    const busyKeyDelayMs = options.busyKeyDelayMs ?? 1_000;
    const runningPerKey = new Map<number, number>();
    const run = async (job: Job<ListJob>, token?: string) => {
      const { listId, keyId } = job.data;
      // Jobs queued by an earlier version carry no key: they run as before.
      if (keyId === undefined) return runner.run(listId);
      const running = runningPerKey.get(keyId) ?? 0;
      if (running >= concurrency) {
        // The key has its share of this worker: the job goes back (keeping its priority) and the
        // slot goes to another key's job. BullMQ Pro's groups do this; open-source BullMQ does not.
        await job.moveToDelayed(Date.now() + busyKeyDelayMs, token);
        throw new DelayedError();
      }
      runningPerKey.set(keyId, running + 1);
      try {
        await runner.run(listId);
      } finally {
        const left = (runningPerKey.get(keyId) ?? 1) - 1;
        if (left > 0) runningPerKey.set(keyId, left);
        else runningPerKey.delete(keyId);
      }
    };
    worker = new Worker<ListJob>(LIST_QUEUE_NAME, run, { connection, prefix, concurrency: concurrency * KEYS_AT_ONCE });
    worker.on('error', (error) => options.logger.warn({ err: error }, 'list worker error'));
  }
  const enqueue = async ({ id: listId, keyId }: QueuedList) => {
    // A key's n-th list waiting or running gets priority n (1 is taken first): another key's first
    // list goes before this key's backlog, whatever was queued first (round-robin by deficit).
    const priority = Math.min(MAX_PRIORITY, Math.max(1, await options.store.waitingForKey(keyId)));
    const jobs = Array.from({ length: options.shares }, (_, share) => ({
      name: 'run',
      data: { listId, keyId },
      // One job per share while it waits or runs: asking again for a list already queued adds nothing.
      opts: {
        jobId: `list-${listId}-${share}`,
        priority,
        removeOnComplete: true,
        removeOnFail: true,
        attempts: 3,
        backoff: { type: 'exponential' as const, delay: 5_000 },
      },
    }));
    await queue.addBulk(jobs);
  };
  return {
    enqueue(list) {
      enqueue(list).catch((error: unknown) => options.logger.error({ err: error, list_id: list.id }, 'could not queue list'));
    },
    async resume() {
      for (const list of await options.store.unfinished()) await enqueue(list);
    },
    async idle() {
      for (;;) {
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
        if (Object.values(counts).every((n) => n === 0)) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async jobCounts() {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      return { waiting: (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0), active: counts.active ?? 0 };
    },
    async close() {
      options.worker?.runner.stop();
      // A Redis that does not answer would hold BullMQ's close (and the process's shutdown) for
      // ever: past the wait the connections are left behind; committed chunks are never redone,
      // and another worker takes the unfinished ones once their leases run out.
      const closed = (async () => {
        await worker?.close();
        await queue.close();
      })().then(() => true);
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), closeWaitMs)));
      const done = await Promise.race([closed, waited]);
      clearTimeout(timer);
      if (!done) {
        closed.catch(() => undefined);
        options.logger.warn({ wait_ms: closeWaitMs }, 'list queue did not close in time (Redis not answering); stopping without it');
      }
    },
  };
}
