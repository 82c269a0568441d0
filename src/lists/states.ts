/**
 * List and service states (api-reference "States and transitions", decisions §6) as one pure
 * transition function. The overall status follows from the services and two flags:
 *
 *   Pending ── first service Completed ──► Processed ── all Completed ──► Processing ──► Results
 *                                            │  (report=true with a service other than
 *                                            │   email_validation: waits here for `purchase`)
 *   Cancelled: from Pending, Processed or Processing.   Invalid: parse failure, from Pending.
 *   Error: our failure, from any unfinished state (a failed service fails the list).
 *
 * `purchase` is idempotent (decisions §6: purchasing twice is harmless): accepted before the
 * services finish (remembered), while waiting, and after (no change). `cancel` on a cancelled
 * list is a no-op. Anything else on a finished list, or out of order, is refused with a reason.
 */
import { fail, ok, type Outcome } from './outcome.js';
import type { ListServiceName as ListService, ListStatus, ServiceStatus } from './list-record.js';

export interface ListState {
  status: ListStatus;
  /** Submitted with `report=true`. */
  report: boolean;
  purchased: boolean;
  services: Partial<Record<ListService, ServiceStatus>>;
}

export type ListEvent =
  | { type: 'service_started'; service: ListService }
  | { type: 'service_completed'; service: ListService }
  | { type: 'service_failed'; service: ListService }
  | { type: 'purchase' }
  | { type: 'results_written' }
  | { type: 'cancel' }
  | { type: 'parse_failed' }
  | { type: 'failed' };

export const FINISHED: readonly ListStatus[] = ['Results', 'Cancelled', 'Invalid', 'Error'];
export const isFinished = (status: ListStatus) => FINISHED.includes(status);

/** Decisions §6: the callback fires on reaching Results, Invalid or Error (not Cancelled). */
export const notifiesCallback = (status: ListStatus) => status === 'Results' || status === 'Invalid' || status === 'Error';

export function newListState(services: readonly ListService[], report: boolean): ListState {
  return { status: 'Pending', report, purchased: false, services: Object.fromEntries(services.map((s) => [s, 'Pending'])) };
}

/** report=true holds back everything but verification ("works for all services except verification"). */
export function awaitsPurchase(state: ListState): boolean {
  return state.report && !state.purchased && Object.keys(state.services).some((s) => s !== 'email_validation');
}

const allCompleted = (state: ListState) => Object.values(state.services).every((s) => s === 'Completed');

/** Where a list goes when its services stand as they do now. */
function settle(state: ListState): ListState {
  if (state.status !== 'Pending' && state.status !== 'Processed') return state;
  if (allCompleted(state) && !awaitsPurchase(state)) return { ...state, status: 'Processing' };
  const anyCompleted = Object.values(state.services).some((s) => s === 'Completed');
  return anyCompleted ? { ...state, status: 'Processed' } : state;
}

const withService = (state: ListState, service: ListService, status: ServiceStatus): ListState => ({
  ...state,
  services: { ...state.services, [service]: status },
});

const refuse = (state: ListState, event: ListEvent) => fail(`A list in state ${state.status} cannot take ${event.type}`);

export function transition(state: ListState, event: ListEvent): Outcome<ListState> {
  if (event.type === 'cancel' && state.status === 'Cancelled') return ok(state);
  if (event.type === 'purchase' && (state.status === 'Processing' || state.status === 'Results')) return ok(state);
  if (isFinished(state.status)) return fail(`The list is already finished (${state.status})`);

  switch (event.type) {
    case 'service_started':
    case 'service_completed':
    case 'service_failed': {
      const current = state.services[event.service];
      if (current === undefined) return fail(`The list does not run ${event.service}`);
      if (state.status === 'Processing') return refuse(state, event);
      if (event.type === 'service_started') {
        // Processing → Processing is a worker resuming after a crash.
        if (current !== 'Pending' && current !== 'Processing') return fail(`${event.service} is already ${current}`);
        return ok(withService(state, event.service, 'Processing'));
      }
      if (event.type === 'service_completed') {
        if (current === 'Completed') return ok(state);
        if (current !== 'Pending' && current !== 'Processing') return fail(`${event.service} is already ${current}`);
        return ok(settle(withService(state, event.service, 'Completed')));
      }
      return ok({ ...withService(state, event.service, 'Error'), status: 'Error' });
    }
    case 'purchase':
      return ok(settle({ ...state, purchased: true }));
    case 'results_written':
      return state.status === 'Processing' ? ok({ ...state, status: 'Results' }) : refuse(state, event);
    case 'cancel':
      return ok({ ...stopServices(state, 'Cancelled'), status: 'Cancelled' });
    case 'parse_failed':
      return state.status === 'Pending' ? ok({ ...stopServices(state, 'Cancelled'), status: 'Invalid' }) : refuse(state, event);
    case 'failed':
      return ok({ ...stopServices(state, 'Error'), status: 'Error' });
  }
}

/** Services not yet finished take `to`; completed ones keep their results. */
function stopServices(state: ListState, to: ServiceStatus): ListState {
  const services = Object.fromEntries(
    Object.entries(state.services).map(([s, status]) => [s, status === 'Pending' || status === 'Processing' ? to : status]),
  );
  return { ...state, services };
}
