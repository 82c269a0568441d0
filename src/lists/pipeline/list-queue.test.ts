import { describe, expect, it } from 'vitest';
import { createLogger } from '../../core/logger.js';
import { createListQueue, type ListRunner } from './list-queue.js';

/** A runner whose runs end only when the test says so. */
function heldRunner() {
  const started: number[] = [];
  const ends = new Map<number, () => void>();
  const runner: ListRunner = {
    run: (id) =>
      new Promise<void>((resolve) => {
        started.push(id);
        ends.set(id, resolve);
      }),
    stop() {},
  };
  return { runner, started, end: (id: number) => ends.get(id)!() };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('createListQueue', () => {
  it("starts a second key's list at once behind one key's sixteen, and runs the rest round-robin", async () => {
    const { runner, started, end } = heldRunner();
    const queue = createListQueue({ runner, store: { unfinished: async () => [] }, logger: createLogger('silent'), concurrency: 2 });
    for (let id = 1; id <= 16; id++) queue.enqueue({ id, keyId: 1 });
    queue.enqueue({ id: 100, keyId: 2 });
    queue.enqueue({ id: 101, keyId: 2 });
    queue.enqueue({ id: 102, keyId: 2 });
    await settle();
    // Each key runs `concurrency` lists at once; key 1's backlog holds nothing of key 2's.
    expect(started).toEqual([1, 2, 100, 101]);
    expect(await queue.jobCounts()).toEqual({ waiting: 15, active: 4 });
    end(100);
    await settle();
    expect(started.at(-1)).toBe(102);
    end(1);
    await settle();
    expect(started.at(-1)).toBe(3);
    for (const id of [2, 3, 101, 102]) end(id);
    await settle();
    for (let id = 4; id <= 16; id++) {
      end(id);
      await settle();
    }
    await queue.idle();
    expect(started).toHaveLength(19);
    await queue.close();
  });

  it('runs a list asked for again while it runs once more after, never twice at once', async () => {
    const { runner, started, end } = heldRunner();
    const queue = createListQueue({ runner, store: { unfinished: async () => [] }, logger: createLogger('silent'), concurrency: 1 });
    queue.enqueue({ id: 7, keyId: 1 });
    queue.enqueue({ id: 7, keyId: 1 });
    await settle();
    expect(started).toEqual([7]);
    end(7);
    await settle();
    expect(started).toEqual([7, 7]);
    end(7);
    await queue.idle();
    await queue.close();
  });
});
