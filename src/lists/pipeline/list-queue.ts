/**
 * The embedded list queue: list ids run in this process, a few at a time, each at most once at
 * a time. At start every unfinished list is queued again, which is how a list survives a
 * restart (the runner resumes it from its committed chunks). Scale-out swaps in a shared queue.
 */
import type { Logger } from '../../core/logger.js';
import type { ListStore } from '../list-record.js';

export interface ListQueue {
  /** Queues the list (its key decides its turn: lists are taken round-robin across keys). */
  enqueue(list: QueuedList): void;
  /** Queues every list left unfinished by an earlier process. */
  resume(): Promise<void>;
  /** Resolves when nothing is queued or running (tests, shutdown). */
  idle(): Promise<void>;
  /** Jobs waiting and running (metrics): this process's own, or the shared queue's with Redis. */
  jobCounts(): Promise<{ waiting: number; active: number }>;
  close(): Promise<void>;
}

/**
 * What a queue runs (list-runner.ts `createListRunner`): the embedded queue here and the BullMQ
 * worker (storage/redis/bull-list-queue.ts) alike.
 */
export interface ListRunner {
  run(listId: number): Promise<void>;
  /** Shutdown: no new chunk starts, and a failure from here on is not the list's (it resumes at the next start). */
  stop(): void;
}

export interface QueuedList {
  id: number;
  keyId: number;
}

/** How many keys' lists may run at once, in units of `concurrency` (the chunk slots bound the work). */
export const KEYS_AT_ONCE = 4;

/**
 * `concurrency` lists of one key run at once, and lists of other keys beside them (up to
 * KEYS_AT_ONCE × `concurrency` in all); waiting lists are taken round-robin across keys, so a
 * key's small list never waits for another key's backlog to drain. What the running lists do at
 * once is bounded by the chunk slots (fair-gate.ts), shared the same way.
 */
export function createListQueue(deps: {
  runner: ListRunner;
  store: Pick<ListStore, 'unfinished'>;
  logger: Logger;
  concurrency: number;
}): ListQueue {
  /** Waiting list ids per key, and the keys with any, in turn order. */
  const waiting = new Map<number, number[]>();
  let turn: number[] = [];
  const running = new Map<number, Promise<void>>();
  const runningPerKey = new Map<number, number>();
  /** Lists asked for again while running: run once more after, so no request is lost. */
  const again = new Set<number>();
  let closed = false;
  let idleWaiters: (() => void)[] = [];

  const start = (id: number, keyId: number) => {
    runningPerKey.set(keyId, (runningPerKey.get(keyId) ?? 0) + 1);
    const run = deps.runner
      .run(id)
      .catch((error: unknown) => deps.logger.error({ err: error, list_id: id }, 'list run failed'))
      .finally(() => {
        running.delete(id);
        const left = (runningPerKey.get(keyId) ?? 1) - 1;
        if (left > 0) runningPerKey.set(keyId, left);
        else runningPerKey.delete(keyId);
        if (again.delete(id)) enqueue({ id, keyId });
        pump();
      });
    running.set(id, run);
  };

  const pump = () => {
    // Each key in turn with room starts one list and goes to the back; a key at its cap is passed over.
    let passed = 0;
    while (!closed && running.size < deps.concurrency * KEYS_AT_ONCE && passed < turn.length) {
      const keyId = turn.shift()!;
      const ids = waiting.get(keyId)!;
      if ((runningPerKey.get(keyId) ?? 0) >= deps.concurrency) {
        turn.push(keyId);
        passed += 1;
        continue;
      }
      passed = 0;
      start(ids.shift()!, keyId);
      if (ids.length > 0) turn.push(keyId);
      else waiting.delete(keyId);
    }
    if (running.size === 0 && waiting.size === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  };

  const enqueue = ({ id, keyId }: QueuedList) => {
    if (closed) return;
    const ids = waiting.get(keyId);
    if (running.has(id)) again.add(id);
    else if (!ids) {
      waiting.set(keyId, [id]);
      turn.push(keyId);
    } else if (!ids.includes(id)) ids.push(id);
    pump();
  };

  return {
    enqueue,
    async resume() {
      for (const list of await deps.store.unfinished()) enqueue(list);
    },
    idle() {
      if (running.size === 0 && waiting.size === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async jobCounts() {
      let queued = 0;
      for (const ids of waiting.values()) queued += ids.length;
      return { waiting: queued, active: running.size };
    },
    async close() {
      closed = true;
      waiting.clear();
      turn = [];
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
