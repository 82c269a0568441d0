/**
 * The embedded list queue: list ids run in this process, a few at a time, each at most once at
 * a time. At start every unfinished list is queued again, which is how a list survives a
 * restart (the runner resumes it from its committed chunks). Scale-out swaps in a shared queue.
 */
import type { Logger } from '../../core/logger.js';
import type { ListStore } from '../list-record.js';
import type { ListRunner } from './list-runner.js';

export interface ListQueue {
  enqueue(listId: number): void;
  /** Queues every list left unfinished by an earlier process. */
  resume(): Promise<void>;
  /** Resolves when nothing is queued or running (tests, shutdown). */
  idle(): Promise<void>;
  /** Jobs waiting and running (metrics): this process's own, or the shared queue's with Redis. */
  jobCounts(): Promise<{ waiting: number; active: number }>;
  close(): Promise<void>;
}

export function createListQueue(deps: { runner: ListRunner; store: Pick<ListStore, 'unfinished'>; logger: Logger; concurrency: number }): ListQueue {
  const waiting: number[] = [];
  const running = new Map<number, Promise<void>>();
  /** Lists asked for again while running: run once more after, so no request is lost. */
  const again = new Set<number>();
  let closed = false;
  let idleWaiters: (() => void)[] = [];

  const pump = () => {
    while (!closed && running.size < deps.concurrency && waiting.length > 0) {
      const id = waiting.shift()!;
      const run = deps.runner
        .run(id)
        .catch((error: unknown) => deps.logger.error({ err: error, list_id: id }, 'list run failed'))
        .finally(() => {
          running.delete(id);
          if (again.delete(id)) enqueue(id);
          pump();
        });
      running.set(id, run);
    }
    if (running.size === 0 && waiting.length === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  };

  const enqueue = (listId: number) => {
    if (closed) return;
    if (running.has(listId)) again.add(listId);
    else if (!waiting.includes(listId)) waiting.push(listId);
    pump();
  };

  return {
    enqueue,
    async resume() {
      for (const list of await deps.store.unfinished()) enqueue(list.id);
    },
    idle() {
      if (running.size === 0 && waiting.length === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async jobCounts() {
      return { waiting: waiting.length, active: running.size };
    },
    async close() {
      closed = true;
      waiting.length = 0;
      deps.runner.stop();
      // Chunks in flight may finish and commit; what doesn't resumes at the next start.
      await Promise.race([Promise.allSettled(running.values()), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    },
  };
}

/** An API process that runs no lists: submitted lists wait in the store for a worker process. */
export function createNoListQueue(): ListQueue {
  return {
    enqueue() {},
    async resume() {},
    async idle() {},
    async jobCounts() {
      return { waiting: 0, active: 0 };
    },
    async close() {},
  };
}
