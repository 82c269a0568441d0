/**
 * The list queue on Redis (BullMQ) for scale-out: any API process adds jobs, any worker process
 * runs them. A list gets `shares` jobs, so that as many workers can work on it at once; they
 * share its chunks through the store's leases (lists/pipeline/lease.ts). A worker that dies
 * leaves its job stalled; BullMQ hands it to another worker, which resumes from the committed
 * chunks and takes the dead worker's chunks over once their leases end.
 */
import { Queue, Worker } from 'bullmq';
import type { Logger } from '../../core/logger.js';
import type { ListStore } from '../../lists/list-record.js';
import type { ListQueue } from '../../lists/pipeline/list-queue.js';
import type { ListRunner } from '../../lists/pipeline/list-runner.js';

export const LIST_QUEUE_NAME = 'mailsure-lists';

export interface BullListQueueOptions {
  redisUrl: string;
  store: Pick<ListStore, 'unfinished'>;
  logger: Logger;
  /** Jobs per list: how many workers may share one list. */
  shares: number;
  /** Present in worker processes: runs jobs with this concurrency. */
  worker?: { runner: ListRunner; concurrency: number };
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
  let worker: Worker<{ listId: number }> | undefined;
  if (options.worker) {
    const { runner, concurrency } = options.worker;
    worker = new Worker<{ listId: number }>(LIST_QUEUE_NAME, (job) => runner.run(job.data.listId), { connection, prefix, concurrency });
    worker.on('error', (error) => options.logger.warn({ err: error }, 'list worker error'));
  }
  const enqueue = async (listId: number) => {
    const jobs = Array.from({ length: options.shares }, (_, share) => ({
      name: 'run',
      data: { listId },
      // One job per share while it waits or runs: asking again for a list already queued adds nothing.
      opts: { jobId: `list-${listId}-${share}`, removeOnComplete: true, removeOnFail: true, attempts: 3, backoff: { type: 'exponential', delay: 5_000 } },
    }));
    await queue.addBulk(jobs);
  };
  return {
    enqueue(listId) {
      enqueue(listId).catch((error: unknown) => options.logger.error({ err: error, list_id: listId }, 'could not queue list'));
    },
    async resume() {
      for (const list of await options.store.unfinished()) await enqueue(list.id);
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
