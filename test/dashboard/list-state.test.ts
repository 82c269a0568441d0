/** Issue 26: the dashboard's progress reads as records — each service's own fraction, never their sum. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ListResource } from '../../dashboard/src/api.js';
import { inProgress, progress } from '../../dashboard/src/list-state.js';

type Services = ListResource['services'];
const list = (status: string, services: Services): ListResource =>
  ({ list_id: 1, name: 'a.csv', status, records: 298, size_bytes: 10, created_at: '2026-01-01T00:00:00Z', services }) as ListResource;
type Status = NonNullable<Services['email_validation']>['status'];
const service = (done: number, total: number, status: Status = 'Processing') => ({ input_count: total, completed_count: done, status });

describe('progress', () => {
  it('is 298 of 298 records for a finished list of 298 records with three services, not 894 of 894', () => {
    const done = list('Results', {
      email_validation: service(298, 298, 'Completed'),
      email_intelligence: service(298, 298, 'Completed'),
      email_append: service(298, 298, 'Completed'),
    });
    expect(progress(done)).toMatchObject({ done: 298, total: 298 });
    expect(progress(done)!.services.map((s) => [s.name, s.done, s.total])).toEqual([
      ['Verification', 298, 298],
      ['Enrichment', 298, 298],
      ['Email append', 298, 298],
    ]);
  });

  it('is the least advanced service’s own records, each service keeping its own fraction', () => {
    const running = list('Pending', { email_validation: service(150, 298), email_append: service(120, 120) });
    expect(progress(running)).toEqual({
      done: 150,
      total: 298,
      services: [
        { name: 'Verification', done: 150, total: 298 },
        { name: 'Email append', done: 120, total: 120 },
      ],
    });
    expect(progress(list('Pending', {}))).toBeNull();
  });

  it('never runs ahead of any service, nor past its own total', () => {
    const counts = fc.tuple(fc.nat(10_000), fc.nat(10_000)).map(([a, b]) => service(Math.min(a, b), Math.max(a, b)));
    fc.assert(
      fc.property(fc.array(counts, { minLength: 1, maxLength: 3 }), (each) => {
        const names = ['email_validation', 'email_intelligence', 'email_append'];
        const p = progress(list('Pending', Object.fromEntries(each.map((s, i) => [names[i], s])) as Services))!;
        const fraction = (done: number, total: number) => (total === 0 ? 1 : done / total);
        return (
          p.done <= p.total &&
          each.every((s) => fraction(p.done, p.total) <= fraction(s.completed_count, s.input_count)) &&
          each.some((s) => s.input_count === p.total && s.completed_count === p.done)
        );
      }),
    );
  });
});

describe('inProgress', () => {
  it('is true for a Pending list only once one of its services has begun', () => {
    expect(inProgress(list('Pending', { email_validation: service(0, 298, 'Pending') }))).toBe(false);
    expect(inProgress(list('Pending', { email_validation: service(0, 298, 'Processing') }))).toBe(true);
    expect(inProgress(list('Pending', { email_validation: service(10, 298, 'Pending') }))).toBe(true);
    expect(inProgress(list('Processed', { email_validation: service(10, 298, 'Processing') }))).toBe(false);
    expect(inProgress(list('Pending', {}))).toBe(false);
  });
});
