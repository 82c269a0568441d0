import { describe, expect, it } from 'vitest';
import { createDomainScheduler, DECAY_EVERY, STARTS_PER_TURN } from './domain-scheduler.js';

const tick = () => new Promise((r) => setImmediate(r));

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('createDomainScheduler', () => {
  it("takes a domain's waiting tasks by lane, the least served first: another key's few rows do not wait behind one key's many", async () => {
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
    // a0 was running when b's rows came: b, served less, goes next; then the lanes, served alike, take turns.
    expect(started.slice(0, 5)).toEqual(['a0', 'b0', 'a1', 'b1', 'a2']);
    await many;
    expect(started).toHaveLength(102);
    expect(started.filter((name) => name.startsWith('a'))).toEqual(Array.from({ length: 100 }, (_, i) => `a${i}`));
  });

  it('puts a key that arrives behind a backlog first until it has had as much service, then takes turns', async () => {
    const s = createDomainScheduler({ concurrency: 1, perDomain: 1 });
    const started: string[] = [];
    const gate = deferred();
    const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    // Lane 1 has had 50 tasks of service (in another domain) before lane 2 comes.
    await s.runEach(
      names('x', 50),
      () => 'yahoo.com',
      async (name) => void started.push(name),
      1,
    );
    const blocker = s.runEach(
      ['hold'],
      () => 'gmail.com',
      () => gate.promise,
      9,
    );
    const backlog = s.runEach(
      names('a', 100),
      () => 'gmail.com',
      async (name) => void started.push(name),
      1,
    );
    const newcomer = s.runEach(
      names('b', 60),
      () => 'gmail.com',
      async (name) => void started.push(name),
      2,
    );
    gate.resolve();
    await Promise.all([blocker, backlog, newcomer]);
    const order = started.slice(50);
    // b had none, a 50: b's first 50 go before any of a's, then the two alternate, b's left after a's turn each.
    expect(order.slice(0, 50)).toEqual(names('b', 50));
    expect(order.slice(50, 70)).toEqual([
      'a0',
      'b50',
      'a1',
      'b51',
      'a2',
      'b52',
      'a3',
      'b53',
      'a4',
      'b54',
      'a5',
      'b55',
      'a6',
      'b56',
      'a7',
      'b57',
      'a8',
      'b58',
      'a9',
      'b59',
    ]);
    expect(order.slice(70)).toEqual(names('a', 100).slice(10));
  });

  it('forgets service over time: halved every DECAY_EVERY starts, so an old backlog does not keep a key behind', async () => {
    const s = createDomainScheduler({ concurrency: 1, perDomain: 1 });
    const noop = async () => undefined;
    // Lane 1 served DECAY_EVERY tasks (then halved to DECAY_EVERY / 2); lane 2 DECAY_EVERY / 2 - 10 after that.
    await s.runEach(
      Array.from({ length: DECAY_EVERY }, (_, i) => i),
      () => 'a.com',
      noop,
      1,
    );
    await s.runEach(
      Array.from({ length: DECAY_EVERY / 2 - 10 }, (_, i) => i),
      () => 'b.com',
      noop,
      2,
    );
    const started: string[] = [];
    const gate = deferred();
    const blocker = s.runEach(
      ['hold'],
      () => 'gmail.com',
      () => gate.promise,
      9,
    );
    const one = s.runEach(
      ['a0', 'a1', 'a2'],
      () => 'gmail.com',
      async (name) => void started.push(name),
      1,
    );
    const two = s.runEach(
      Array.from({ length: 12 }, (_, i) => `b${i}`),
      () => 'gmail.com',
      async (name) => void started.push(name),
      2,
    );
    gate.resolve();
    await Promise.all([blocker, one, two]);
    // Lane 2 is 10 behind lane 1's halved service: its 10 first, then turns.
    expect(started).toEqual(['b0', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8', 'b9', 'a0', 'b10', 'a1', 'b11', 'a2']);
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

  /** Counts each turn's starts, told apart by a callback of each turn's check phase; `stop()` ends the count. */
  function startsPerTurn() {
    const perTurn: number[] = [0];
    let open = true;
    const mark = () => {
      if (!open) return;
      perTurn.push(0);
      setImmediate(mark);
    };
    setImmediate(mark);
    return {
      perTurn,
      started: () => void (perTurn[perTurn.length - 1]! += 1),
      stop: () => void (open = false),
    };
  }

  it('starts at most STARTS_PER_TURN tasks in one turn of the event loop while those answered at once fill it', async () => {
    const s = createDomainScheduler({ concurrency: 64, perDomain: 64 });
    const turns = startsPerTurn();
    // Answered at once, as a verdict from caches, and each a fifth of a millisecond of work: a turn's
    // starts end within its microtasks and fill more than its slice.
    await s.runEach(
      Array.from({ length: 200 }, (_, i) => i),
      () => 'gmail.com',
      async () => {
        turns.started();
        const until = performance.now() + 0.2;
        while (performance.now() < until);
      },
    );
    turns.stop();
    expect(turns.perTurn.reduce((a, b) => a + b, 0)).toBe(200);
    expect(Math.max(...turns.perTurn)).toBeLessThanOrEqual(STARTS_PER_TURN);
  });

  it('starts more in a turn when the tasks wait (on the network) instead of working', async () => {
    const s = createDomainScheduler({ concurrency: 512, perDomain: 512 });
    const turns = startsPerTurn();
    const answer = deferred();
    const all = s.runEach(
      Array.from({ length: 512 }, (_, i) => i),
      () => 'mx.example',
      async () => {
        turns.started();
        await answer.promise;
      },
    );
    while (s.active < 512) await tick();
    turns.stop();
    answer.resolve();
    await all;
    expect(Math.max(...turns.perTurn)).toBeGreaterThan(STARTS_PER_TURN);
  });

  it('refuses a zero capacity', () => {
    expect(() => createDomainScheduler({ concurrency: 0, perDomain: 1 })).toThrow(RangeError);
  });
});
