import { describe, expect, it } from 'vitest';
import { measureAddressAccuracy } from './address-accuracy.js';

/**
 * What parseUsAddress scored when these were written, less one point: a change that loses
 * more than that on a corpus fails here. Raise the floors when accuracy improves.
 */
const FLOORS: Readonly<Record<string, { overall: number; rows: number }>> = {
  'usaddress labeled.xml + training (fine labels)': { overall: 0.938, rows: 1151 },
  'usaddress us50 (coarse street labels)': { overall: 0.982, rows: 653 },
  'parse-address test.js': { overall: 0.99, rows: 65 },
};

describe('measureAddressAccuracy', () => {
  const results = measureAddressAccuracy();

  it('scores every corpus', () => {
    expect(results.map((r) => r.corpus).sort()).toEqual(Object.keys(FLOORS).sort());
  });

  it.each(Object.entries(FLOORS))('%s stays at or above its floor', (corpus, floor) => {
    const result = results.find((r) => r.corpus === corpus)!;
    expect(result.rows).toBe(floor.rows);
    expect(result.overall).toBeGreaterThanOrEqual(floor.overall);
    for (const component of result.components) expect(component.correct).toBeLessThanOrEqual(component.total);
  });
});
