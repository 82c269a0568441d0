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
import { KEYS_AT_ONCE, type ListQueue, type ListRunner, type QueuedList } from '../../lists/pipeline/list-queue.js';

export const LIST_QUEUE_NAME = 'mailsure-lists';

interface ListJob {
  listId: number;
  /** Absent in jobs an earlier version queued. */
  keyId?: number;
}

/**
 * Longest wait of a job sent back because its key has its share of a worker; it is woken sooner
 * when a run of its key ends on that worker (and another worker takes it when the wait ends).
 */
const BUSY_KEY_DELAY_MS = 10_000;

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
  /** Longest wait of a job of a key already at its cap in this worker before it is offered again (default 10 s; woken sooner when a run of its key ends here). */
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
    const busyKeyDelayMs = options.busyKeyDelayMs ?? BUSY_KEY_DELAY_MS;
    const runningPerKey = new Map<number, number>();
    /** Per key, the jobs this worker sent back to wait, oldest first. */
    const sentBack = new Map<number, Set<string>>();
    /** A run of the key ended here: the oldest job of it this worker sent back that still waits, waits no longer. */
    const wakeOne = async (keyId: number) => {
      const ids = sentBack.get(keyId);
      while (ids && ids.size > 0) {
        const id = ids.values().next().value!;
        ids.delete(id);
        // Gone, or waiting or running already (another worker took it when its wait ended): the next one.
        const job = await queue.getJob(id).catch(() => undefined);
        if (
          job &&
          (await job.promote().then(
            () => true,
            () => false,
          ))
        )
          break;
      }
      if (ids?.size === 0) sentBack.delete(keyId);
    };
    const run = async (job: Job<ListJob>, token?: string) => {
      const { listId, keyId } = job.data;
      // Jobs queued by an earlier version carry no key: they run as before.
      if (keyId === undefined) return runner.run(listId);
      const running = runningPerKey.get(keyId) ?? 0;
      if (running >= concurrency) {
        // The key has its share of this worker: the job goes back (keeping its priority) and the
        // slot goes to another key's job. BullMQ Pro's groups do this; open-source BullMQ does not.
        // It waits until a run of its key ends here (wakeOne), or BUSY_KEY_DELAY_MS at most: a
        // short fixed delay re-offered every waiting job of a backlog each second, work (a fetch
        // and a move per job) that grew with the backlog and took the CPU other keys' lists need.
        await job.moveToDelayed(Date.now() + busyKeyDelayMs, token);
        let ids = sentBack.get(keyId);
        if (!ids) sentBack.set(keyId, (ids = new Set()));
        ids.delete(job.id!);
        ids.add(job.id!);
        throw new DelayedError();
      }
      runningPerKey.set(keyId, running + 1);
      try {
        await runner.run(listId);
      } finally {
        const left = (runningPerKey.get(keyId) ?? 1) - 1;
        if (left > 0) runningPerKey.set(keyId, left);
        else runningPerKey.delete(keyId);
        void wakeOne(keyId);
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
