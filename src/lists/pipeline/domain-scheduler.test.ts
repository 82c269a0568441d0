import { describe, expect, it } from 'vitest';
import { createDomainScheduler } from './domain-scheduler.js';

const tick = () => new Promise((r) => setImmediate(r));

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('createDomainScheduler', () => {
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

  it('refuses a zero capacity', () => {
    expect(() => createDomainScheduler({ concurrency: 0, perDomain: 1 })).toThrow(RangeError);
  });
});
