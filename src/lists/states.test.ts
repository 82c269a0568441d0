import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { awaitsPurchase, newListState, notifiesCallback, transition, type ListEvent, type ListState } from './states.js';

function run(state: ListState, ...events: ListEvent[]): ListState {
  for (const event of events) {
    const next = transition(state, event);
    if (!next.ok) throw new Error(next.reason);
    state = next.value;
  }
  return state;
}

const start = (s: 'email_validation' | 'email_intelligence' | 'email_append') => ({ type: 'service_started', service: s }) as const;
const done = (s: 'email_validation' | 'email_intelligence' | 'email_append') => ({ type: 'service_completed', service: s }) as const;

describe('list states', () => {
  it('walks Pending → Processed → Processing → Results', () => {
    let s = newListState(['email_validation', 'email_intelligence'], false);
    s = run(s, start('email_validation'), start('email_intelligence'));
    expect(s.status).toBe('Pending');
    s = run(s, done('email_validation'));
    expect(s).toMatchObject({ status: 'Processed', services: { email_validation: 'Completed', email_intelligence: 'Processing' } });
    s = run(s, done('email_intelligence'));
    expect(s.status).toBe('Processing');
    s = run(s, { type: 'results_written' });
    expect(s.status).toBe('Results');
  });

  it('goes straight to Processing when the only service completes', () => {
    expect(run(newListState(['email_validation'], false), start('email_validation'), done('email_validation')).status).toBe('Processing');
  });

  it('waits in Processed for purchase with report=true, and purchase is idempotent', () => {
    let s = run(newListState(['email_validation', 'email_append'], true), start('email_validation'), done('email_validation'));
    s = run(s, start('email_append'), done('email_append'));
    expect(s.status).toBe('Processed');
    expect(awaitsPurchase(s)).toBe(true);
    s = run(s, { type: 'purchase' });
    expect(s).toMatchObject({ status: 'Processing', purchased: true });
    expect(run(s, { type: 'purchase' })).toEqual(s);
    s = run(s, { type: 'results_written' }, { type: 'purchase' });
    expect(s.status).toBe('Results');
  });

  it('remembers a purchase made before the services finish', () => {
    const s = run(
      newListState(['email_intelligence'], true),
      { type: 'purchase' },
      start('email_intelligence'),
      done('email_intelligence'),
    );
    expect(s.status).toBe('Processing');
  });

  it('does not hold back verification alone with report=true', () => {
    const s = run(newListState(['email_validation'], true), done('email_validation'));
    expect(s.status).toBe('Processing');
  });

  it('cancels unfinished lists, keeping completed services', () => {
    const s = run(
      newListState(['email_validation', 'email_append'], false),
      start('email_validation'),
      done('email_validation'),
      start('email_append'),
    );
    const cancelled = run(s, { type: 'cancel' });
    expect(cancelled).toMatchObject({ status: 'Cancelled', services: { email_validation: 'Completed', email_append: 'Cancelled' } });
    expect(run(cancelled, { type: 'cancel' })).toEqual(cancelled);
    expect(transition(cancelled, done('email_append'))).toEqual({ ok: false, reason: 'The list is already finished (Cancelled)' });
  });

  it('fails: Invalid from Pending, Error from anywhere unfinished', () => {
    expect(run(newListState([], false), { type: 'parse_failed' }).status).toBe('Invalid');
    const s = run(newListState(['email_validation'], false), start('email_validation'));
    expect(transition(run(s, done('email_validation')), { type: 'parse_failed' })).toEqual({
      ok: false,
      reason: 'A list in state Processing cannot take parse_failed',
    });
    expect(run(s, { type: 'service_failed', service: 'email_validation' })).toMatchObject({
      status: 'Error',
      services: { email_validation: 'Error' },
    });
    expect(run(run(s, done('email_validation')), { type: 'failed' }).status).toBe('Error');
  });

  it('refuses what is out of order', () => {
    const s = newListState(['email_validation'], false);
    expect(transition(s, { type: 'results_written' })).toEqual({
      ok: false,
      reason: 'A list in state Pending cannot take results_written',
    });
    expect(transition(s, done('email_append'))).toEqual({ ok: false, reason: 'The list does not run email_append' });
    const finished = run(s, done('email_validation'), { type: 'results_written' });
    expect(transition(finished, { type: 'cancel' })).toEqual({ ok: false, reason: 'The list is already finished (Results)' });
    expect(transition(run(s, { type: 'service_failed', service: 'email_validation' }), start('email_validation'))).toEqual({
      ok: false,
      reason: 'The list is already finished (Error)',
    });
  });

  it('lets a resumed worker start a running service again, and completing twice is harmless', () => {
    const s = run(
      newListState(['email_validation', 'email_append'], false),
      start('email_validation'),
      start('email_validation'),
      done('email_validation'),
    );
    expect(run(s, done('email_validation'))).toEqual(s);
  });

  it('calls back on Results, Invalid and Error only', () => {
    expect(
      ['Pending', 'Processed', 'Processing', 'Results', 'Cancelled', 'Invalid', 'Error'].filter((st) => notifiesCallback(st as never)),
    ).toEqual(['Results', 'Invalid', 'Error']);
  });

  it('never leaves a finished state, whatever the events', () => {
    const service = fc.constantFrom('email_validation', 'email_intelligence', 'email_append' as const);
    const event: fc.Arbitrary<ListEvent> = fc.oneof(
      service.map((s) => ({ type: 'service_started', service: s }) as const),
      service.map((s) => ({ type: 'service_completed', service: s }) as const),
      service.map((s) => ({ type: 'service_failed', service: s }) as const),
      fc.constantFrom<ListEvent>(
        { type: 'purchase' },
        { type: 'results_written' },
        { type: 'cancel' },
        { type: 'parse_failed' },
        { type: 'failed' },
      ),
    );
    fc.assert(
      fc.property(
        fc.subarray(['email_validation', 'email_intelligence', 'email_append'] as const, { minLength: 1 }),
        fc.boolean(),
        fc.array(event, { maxLength: 20 }),
        (services, report, events) => {
          let s = newListState(services, report);
          for (const e of events) {
            const next = transition(s, e);
            if (!next.ok) continue;
            if (['Results', 'Invalid', 'Error', 'Cancelled'].includes(s.status)) expect(next.value.status).toBe(s.status);
            if (next.value.status === 'Results') expect(Object.values(next.value.services).every((x) => x === 'Completed')).toBe(true);
            s = next.value;
          }
        },
      ),
    );
  });
});
