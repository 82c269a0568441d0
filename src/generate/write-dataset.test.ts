import { Writable } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { generatePeople } from './people.js';
import { activityLine, personLine, writeDataset } from './write-dataset.js';

const TODAY = '2026-11-22';

/** Keeps what is written; `slow` makes every write wait, so the writer has to respect drain. */
function collector(slow = false) {
  const chunks: Buffer[] = [];
  let maxPending = 0;
  let pending = 0;
  const stream = new Writable({
    highWaterMark: 1 << 16,
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      pending++;
      maxPending = Math.max(maxPending, pending);
      if (!slow) return (pending--, done());
      void tick().then(() => (pending--, done()));
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8'), maxPending: () => maxPending };
}

const nullSink = () => new Writable({ write: (_chunk, _encoding, done) => done() });

describe('personLine and activityLine', () => {
  it('write exactly what JSON.stringify writes', () => {
    for (const { person, activity } of generatePeople({ count: 5000, seed: 'lines', today: TODAY })) {
      expect(personLine(person)).toBe(`${JSON.stringify(person)}\n`);
      for (const event of activity) expect(activityLine(event)).toBe(`${JSON.stringify(event)}\n`);
    }
  });

  it('escape what JSON needs escaped', () => {
    const [first] = [...generatePeople({ count: 1, seed: 'x', today: TODAY })];
    const odd = { ...first!.person, last_name: 'O"Brien\\', address: '1 Main St\n' };
    expect(JSON.parse(personLine(odd))).toEqual(JSON.parse(JSON.stringify(odd)));
  });
});

describe('writeDataset', () => {
  it('writes the same NDJSON the generator yields, people and activity', async () => {
    const people = collector();
    const activity = collector();
    const summary = await writeDataset({ count: 2000, seed: 'w', today: TODAY, people: people.stream, activity: activity.stream });
    const items = [...generatePeople({ count: 2000, seed: 'w', today: TODAY })];
    expect(people.text()).toBe(items.map((i) => personLine(i.person)).join(''));
    expect(activity.text()).toBe(items.flatMap((i) => i.activity.map(activityLine)).join(''));
    expect(summary).toEqual({ people: 2000, activity: items.reduce((n, i) => n + i.activity.length, 0) });
  });

  it('waits for a slow stream instead of piling chunks up', async () => {
    const people = collector(true);
    const activity = collector(true);
    await writeDataset({ count: 20_000, seed: 'slow', today: TODAY, people: people.stream, activity: activity.stream });
    expect(people.text().split('\n').length).toBe(20_001);
    expect(people.maxPending()).toBeLessThanOrEqual(2);
    expect(activity.maxPending()).toBeLessThanOrEqual(2);
  });

  // Its speed is measured by `mailsure generate` in bench/cli-startup.bench.ts's kind of run, not here:
  // a wall-clock bound in a test fails on a loaded machine.
  it('generates 100,000 people with their activity', async () => {
    const summary = await writeDataset({ count: 100_000, seed: 'speed', today: TODAY, people: nullSink(), activity: nullSink() });
    expect(summary.people).toBe(100_000);
    expect(summary.activity).toBeGreaterThan(300_000);
  });
});
