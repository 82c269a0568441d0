import { describe, expect, it } from 'vitest';
import { until } from './until.js';

describe('until', () => {
  it('answers the first truthy value the probe gives, asking again in between', async () => {
    let asks = 0;
    expect(await until(() => (++asks >= 3 ? { asks } : undefined), { everyMs: 1 })).toEqual({ asks: 3 });
    expect(await until(async () => 'ready')).toBe('ready');
  });

  it('gives up after its bound, naming what it waited for and what it saw', async () => {
    await expect(until(() => false, { what: 'the callback', withinMs: 20, everyMs: 5, seen: () => ({ received: 0 }) })).rejects.toThrow(
      'gave up waiting for the callback after 0.02 s; seen: {"received":0}',
    );
    await expect(until(() => 0, { withinMs: 0 })).rejects.toThrow('gave up waiting for a condition');
  });
});
