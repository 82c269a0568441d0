import { describe, expect, it } from 'vitest';
import { Choice, Rng, WeightedTable } from './random.js';
import { SeenSet } from './seen-set.js';
import { DayFormatter, parseDay } from './days.js';

describe('Rng', () => {
  it('repeats a sequence for a seed and differs between seeds', () => {
    const a = new Rng('seed');
    const b = new Rng('seed');
    const c = new Rng('seed2');
    const seqA = Array.from({ length: 100 }, () => a.next());
    expect(Array.from({ length: 100 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 100 }, () => c.next())).not.toEqual(seqA);
  });

  it('draws uniformly enough', () => {
    const rng = new Rng('uniform');
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 100_000; i++) buckets[rng.below(10)]!++;
    for (const n of buckets) expect(Math.abs(n - 10_000)).toBeLessThan(500);
    let sum = 0;
    let squares = 0;
    for (let i = 0; i < 100_000; i++) {
      const x = rng.normal();
      sum += x;
      squares += x * x;
    }
    expect(Math.abs(sum / 100_000)).toBeLessThan(0.02);
    expect(Math.abs(squares / 100_000 - 1)).toBeLessThan(0.03);
  });

  it('draws by weight', () => {
    const rng = new Rng('weights');
    const table = new WeightedTable(['a', 'b', 'c'], [1, 2, 7]);
    const choice = new Choice(['a', 'b', 'c'], [1, 2, 7]);
    const counts = { a: 0, b: 0, c: 0 };
    const counts2 = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 50_000; i++) {
      counts[table.draw(rng) as 'a']++;
      counts2[choice.draw(rng) as 'a']++;
    }
    for (const c of [counts, counts2]) {
      expect(c.a / 50_000).toBeCloseTo(0.1, 1);
      expect(c.c / 50_000).toBeCloseTo(0.7, 1);
    }
    expect(rng.weightedIndex([0, 0])).toBe(-1);
    expect(rng.weightedIndex([0, 3])).toBe(1);
  });
});

describe('SeenSet', () => {
  it('adds once, finds, and grows past its first capacity', () => {
    const set = new SeenSet(10);
    for (let i = 0; i < 50_000; i++) expect(set.add(`user${i}@example.com`)).toBe(true);
    expect(set.size).toBe(50_000);
    expect(set.add('user7@example.com')).toBe(false);
    expect(set.has('user49999@example.com')).toBe(true);
    expect(set.has('nobody@example.com')).toBe(false);
  });
});

describe('days', () => {
  it('parse and format calendar days', () => {
    const fmt = new DayFormatter(parseDay('2026-11-22')!);
    for (const text of ['1970-01-01', '2000-02-29', '2024-12-31', '2026-11-22', '2100-03-01'])
      expect(fmt.format(parseDay(text)!)).toBe(text);
    expect(parseDay('2025-02-29')).toBeUndefined();
    expect(parseDay('2025-1-2')).toBeUndefined();
  });
});
