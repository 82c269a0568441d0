/**
 * The client's progressOf (issue 26, point 6): a list's progress read as records — each service's
 * own count, the list as far as its least advanced service, "in progress" beside a Pending list
 * whose services have started — never the sum over its services.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { progressOf, type ListResource, type ServiceName, type ServiceStatus } from '@mailsure/client';

const NAMES: readonly ServiceName[] = ['email_validation', 'email_intelligence', 'email_append'];
const SERVICE_STATUSES: readonly ServiceStatus[] = ['Pending', 'Processing', 'Completed', 'Cancelled', 'Error'];

type Services = ListResource['services'];

function listOf(status: ListResource['status'], records: number, services: Services): ListResource {
  return { list_id: 7, name: 'people.csv', status, records, size_bytes: 100, created_at: '2026-01-01T00:00:00.000Z', services };
}

const service = (status: ServiceStatus, completed: number, input: number) => ({ status, completed_count: completed, input_count: input });

describe('progressOf', () => {
  it('reads a finished list of 298 records run by three services as 298 of 298 records, not 894', () => {
    const done = service('Completed', 298, 298);
    const p = progressOf(listOf('Results', 298, { email_validation: done, email_intelligence: done, email_append: done }));
    expect(p).toMatchObject({ status: 'Results', label: 'Results', inProgress: false, fraction: 1, done: 298, total: 298 });
    expect(p.services.map((s) => [s.name, s.done, s.total])).toEqual([
      ['email_validation', 298, 298],
      ['email_intelligence', 298, 298],
      ['email_append', 298, 298],
    ]);
  });

  it('is as far as the least advanced service, and says a started Pending list is in progress', () => {
    const p = progressOf(
      listOf('Pending', 298, { email_validation: service('Processing', 200, 298), email_intelligence: service('Processing', 80, 298) }),
    );
    expect(p).toMatchObject({ status: 'Pending', label: 'Pending (in progress)', inProgress: true, done: 80, total: 298 });
    expect(p.fraction).toBeCloseTo(80 / 298, 12);
    expect(p.services.map((s) => s.fraction)).toEqual([200 / 298, 80 / 298]);
  });

  it('says a Pending list in progress when a service has completed records past its input count (found by the property below, seed -126578074)', () => {
    expect(progressOf(listOf('Pending', 16, { email_intelligence: service('Pending', 1, 0) }))).toMatchObject({
      label: 'Pending (in progress)',
      inProgress: true,
    });
  });

  it('is plain Pending before any service starts, and 0 of 0 before the file is parsed', () => {
    expect(progressOf(listOf('Pending', 298, { email_validation: service('Pending', 0, 298) }))).toMatchObject({
      label: 'Pending',
      inProgress: false,
      done: 0,
    });
    expect(progressOf(listOf('Pending', 0, {}))).toMatchObject({
      label: 'Pending',
      inProgress: false,
      fraction: 0,
      done: 0,
      total: 0,
      services: [],
    });
  });

  const count = fc.integer({ min: 0, max: 1_000_000 });
  const listStatus = fc.constantFrom<ListResource['status']>(
    'Pending',
    'Processed',
    'Processing',
    'Results',
    'Cancelled',
    'Invalid',
    'Error',
  );
  const serviceOf = (records: number) =>
    fc.record({
      status: fc.constantFrom(...SERVICE_STATUSES),
      // Usually the list's records (the server gives every service all of them); sometimes any count.
      input_count: fc.oneof(fc.constant(records), count),
      completed_count: count,
    });
  const anyList = count.chain((records) =>
    fc
      .tuple(
        listStatus,
        fc.subarray([...NAMES]).chain((names) => fc.tuple(...names.map((name) => serviceOf(records).map((s) => [name, s] as const)))),
      )
      .map(([status, entries]) => listOf(status, records, Object.fromEntries(entries) as Services)),
  );

  it('never counts more records than the list has, and each service keeps its own count', () => {
    fc.assert(
      fc.property(anyList, (list) => {
        const p = progressOf(list);
        expect(p.total).toBe(list.records);
        expect(p.done).toBeGreaterThanOrEqual(0);
        expect(p.done).toBeLessThanOrEqual(p.total);
        expect(Number.isInteger(p.done)).toBe(true);
        const given = Object.entries(list.services);
        expect(p.services.map((s) => [s.name, s.status, s.total])).toEqual(given.map(([name, s]) => [name, s!.status, s!.input_count]));
        for (const s of p.services) {
          expect(s.done).toBe(Math.min(list.services[s.name]!.completed_count, s.total));
          expect(s.fraction).toBeGreaterThanOrEqual(0);
          expect(s.fraction).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('makes the overall fraction the least advanced service’s, and its count the list’s records when it has them all', () => {
    fc.assert(
      fc.property(anyList, (list) => {
        const p = progressOf(list);
        const fractions = p.services.map((s) => s.fraction);
        expect(p.fraction).toBe(fractions.length === 0 ? 0 : Math.min(...fractions));
        const least = p.services.find((s) => s.fraction === p.fraction);
        if (least && least.total === list.records) expect(p.done).toBe(least.done);
        if (p.services.length > 0 && p.services.every((s) => s.fraction === 1)) expect(p.done).toBe(list.records);
      }),
      { numRuns: 1000 },
    );
  });

  it('says "in progress" beside Pending exactly when a service has started, and keeps the contract’s state name', () => {
    fc.assert(
      fc.property(anyList, (list) => {
        const p = progressOf(list);
        const started = Object.values(list.services).some((s) => s!.status !== 'Pending' || s!.completed_count > 0);
        expect(p.status).toBe(list.status);
        expect(p.inProgress).toBe(list.status === 'Pending' && started);
        expect(p.label).toBe(p.inProgress ? 'Pending (in progress)' : list.status);
      }),
      { numRuns: 1000 },
    );
  });
});
