import { describe, expect, it } from 'vitest';
import { NxdomainWatch } from './nxdomain-watch.js';

const T0 = 1_700_000_000_000;

describe('NxdomainWatch', () => {
  it('never calls for a re-check below the minimum number of lookups (10 by default)', () => {
    const watch = new NxdomainWatch();
    for (let i = 0; i < 9; i++) expect(watch.record(true, T0 + i)).toBe(false);
    expect(watch.record(true, T0 + 9)).toBe(true);
  });

  it('calls for a re-check at exactly the threshold share, not just below', () => {
    const atHalf = new NxdomainWatch({ minLookups: 4 });
    atHalf.record(false, T0);
    atHalf.record(false, T0);
    atHalf.record(true, T0);
    expect(atHalf.record(true, T0)).toBe(true);

    const belowHalf = new NxdomainWatch({ minLookups: 5 });
    for (let i = 0; i < 3; i++) belowHalf.record(false, T0);
    belowHalf.record(true, T0);
    expect(belowHalf.record(true, T0)).toBe(false);
  });

  it('honours a configured threshold', () => {
    const watch = new NxdomainWatch({ minLookups: 4, threshold: 0.75 });
    watch.record(false, T0);
    watch.record(true, T0);
    watch.record(true, T0);
    expect(watch.record(true, T0)).toBe(true);
    const lower = new NxdomainWatch({ minLookups: 4, threshold: 0.76 });
    lower.record(false, T0);
    lower.record(true, T0);
    lower.record(true, T0);
    expect(lower.record(true, T0)).toBe(false);
  });

  it('calls for a re-check only on an NXDOMAIN lookup, even when the share is already high', () => {
    const watch = new NxdomainWatch({ minLookups: 3 });
    for (let i = 0; i < 5; i++) watch.record(true, T0);
    expect(watch.record(false, T0)).toBe(false);
    expect(watch.record(true, T0)).toBe(true);
  });

  it('counts only the lookups inside the window (one minute by default)', () => {
    const watch = new NxdomainWatch({ minLookups: 3 });
    watch.record(true, T0);
    watch.record(true, T0 + 1);
    // The first lookup is exactly one window old: it no longer counts, the second still does.
    expect(watch.record(true, T0 + 60_000)).toBe(false);
    expect(watch.record(true, T0 + 60_000)).toBe(true);
  });

  it('lets old answers drop out of the share', () => {
    const watch = new NxdomainWatch({ windowMs: 1_000, minLookups: 4 });
    for (let i = 0; i < 10; i++) watch.record(false, T0);
    for (let i = 0; i < 3; i++) expect(watch.record(true, T0 + 500)).toBe(false);
    // The ten good answers leave the window; the NXDOMAIN ones stay.
    expect(watch.record(true, T0 + 1_000)).toBe(true);
  });

  it('forgets everything on clear()', () => {
    const watch = new NxdomainWatch({ minLookups: 3 });
    watch.record(true, T0);
    watch.record(true, T0);
    watch.clear();
    expect(watch.record(true, T0)).toBe(false);
    expect(watch.record(true, T0)).toBe(false);
    expect(watch.record(true, T0)).toBe(true);
  });

  it('stays bounded and still answers under heavy traffic', () => {
    const watch = new NxdomainWatch();
    for (let i = 0; i < 20_000; i++) watch.record(false, T0);
    // Only the newest lookups are kept (at most 10 000): fewer than 10 000 NXDOMAIN answers reach
    // half of them, where keeping all 20 000 good answers would need 20 000.
    let nx = 0;
    while (!watch.record(true, T0) && nx < 20_000) nx += 1;
    expect(nx).toBeGreaterThan(4_000);
    expect(nx).toBeLessThan(10_000);
  });
});
