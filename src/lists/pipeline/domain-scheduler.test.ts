import { describe, expect, it } from 'vitest';
import { createDomainScheduler } from './domain-scheduler.js';

const tick = () => new Promise((r) => setImmediate(r));

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('createDomainScheduler', () => {
  it("takes a domain's waiting tasks by lane in turn: another key's few rows do not wait behind one key's many", async () => {
    const s = createDomainScheduler({ concurrency: 1, perDomain: 1 });
    const started: string[] = [];
    const task = (name: string) => async () => void started.push(name);
    const many = s.runEach(
      Array.from({ length: 100 }, (_, i) => `a${i}`),
      () => 'gmail.com',
      (name) => task(name)(),
      1,
    );
    const few = s.runEach(
      ['b0', 'b1'],
      () => 'gmail.com',
      (name) => task(name)(),
      2,
    );
    await few;
    // a0 was running when b's rows came; from then on the two lanes take turns (a's first, it waited first).
    expect(started.slice(0, 5)).toEqual(['a0', 'a1', 'b0', 'a2', 'b1']);
    await many;
    expect(started).toHaveLength(102);
    expect(started.filter((name) => name.startsWith('a'))).toEqual(Array.from({ length: 100 }, (_, i) => `a${i}`));
  });

  it('keeps other domains moving while one domain holds its cap', async () => {
    const s = createDomainScheduler({ concurrency: 4, perDomain: 2 });
    const slow = deferred();
    const started: string[] = [];
    const slowTasks = Array.from({ length: 5 }, (_, i) =>
      s.run('slow.example', async () => {
        started.push(`slow${i}`);
        await slow.promise;
      }),
    );
    const fast = Array.from({ length: 6 }, (_, i) =>
      s.run(`fast${i}.example`, async () => {
        started.push(`fast${i}`);
      }),
    );
    await Promise.all(fast);
    expect(started.filter((x) => x.startsWith('slow'))).toEqual(['slow0', 'slow1']);
    expect(started.filter((x) => x.startsWith('fast'))).toHaveLength(6);
    slow.resolve();
    await Promise.all(slowTasks);
    expect(started.filter((x) => x.startsWith('slow'))).toHaveLength(5);
    expect(s.active).toBe(0);
  });

  it('never exceeds the global concurrency and passes results and errors through', async () => {
    const s = createDomainScheduler({ concurrency: 3, perDomain: 3 });
    let now = 0;
    let peak = 0;
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        s.run(`d${i % 4}`, async () => {
          now += 1;
          peak = Math.max(peak, now);
          await tick();
          now -= 1;
          if (i === 7) throw new Error('seven');
          return i * 2;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(results[7]).toMatchObject({ status: 'rejected', reason: new Error('seven') });
    expect(results[8]).toEqual({ status: 'fulfilled', value: 16 });
  });

  it('runs a batch: results in item order, caps kept, failures reported once', async () => {
    const s = createDomainScheduler({ concurrency: 3, perDomain: 1 });
    const running = new Map<string, number>();
    let peak = 0;
    const items = Array.from({ length: 30 }, (_, i) => ({ i, domain: `d${i % 4}` }));
    const results = await s.runEach(
      items,
      (item) => item.domain,
      async (item) => {
        running.set(item.domain, (running.get(item.domain) ?? 0) + 1);
        peak = Math.max(peak, ...running.values());
        await tick();
        running.set(item.domain, running.get(item.domain)! - 1);
        return item.i * 10;
      },
    );
    expect(results).toEqual(items.map((item) => item.i * 10));
    expect(peak).toBe(1);
    expect(s.active).toBe(0);

    const started: number[] = [];
    await expect(
      s.runEach(
        items,
        (item) => item.domain,
        async (item) => {
          started.push(item.i);
          await tick();
          if (item.i === 2) throw new Error('two');
          return item.i;
        },
      ),
    ).rejects.toThrow('two');
    await new Promise((r) => setTimeout(r, 20));
    // What had not started when the batch failed never starts.
    expect(started.length).toBeLessThan(items.length);
    expect(s.active).toBe(0);
    expect(
      await s.runEach(
        [],
        () => 'x',
        async () => 1,
      ),
    ).toEqual([]);
  });

  it('lets the event loop in during a long run of quick tasks', async () => {
    const s = createDomainScheduler({ concurrency: 4, perDomain: 4 });
    let timerRanAt = -1;
    let done = 0;
    setTimeout(() => (timerRanAt = done), 0);
    await s.runEach(
      Array.from({ length: 20_000 }, (_, i) => i),
      (i) => `d${i % 50}`,
      async () => {
        const until = performance.now() + 0.005;
        while (performance.now() < until);
        done += 1;
      },
    );
    expect(done).toBe(20_000);
    expect(timerRanAt).toBeGreaterThan(0);
    expect(timerRanAt).toBeLessThan(20_000);
  });

  it('refuses a zero capacity', () => {
    expect(() => createDomainScheduler({ concurrency: 0, perDomain: 1 })).toThrow(RangeError);
  });
});
