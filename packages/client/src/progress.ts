/**
 * How far a list is, read as records. Each service keeps its own share (its `completed_count` of
 * its `input_count`); the list is as far as its least advanced service, since a record is done
 * when every service is done with it (summing the services counted a list of 298 records as 894).
 * A list stays `Pending` while its services run: `label` says "in progress" beside it once one has
 * started, and the state names stay the contract's. Pure, so every display reads the same numbers.
 */
import type { ListResource, ListStatus } from './types.js';

export type ServiceName = keyof ListResource['services'];
export type ServiceStatus = NonNullable<ListResource['services'][ServiceName]>['status'];

export interface ServiceProgress {
  name: ServiceName;
  status: ServiceStatus;
  /** The service's `completed_count` (at most its `input_count`). */
  done: number;
  /** The service's `input_count`. */
  total: number;
  /** done of total, 0 to 1 (a service with nothing to do is 1 once Completed). */
  fraction: number;
}

export interface Progress {
  status: ListStatus;
  /** The status, or `Pending (in progress)` for a Pending list one of whose services has started. */
  label: string;
  /** A Pending list one of whose services has started. */
  inProgress: boolean;
  /** The least advanced service's fraction, 0 to 1 (0 while the list has no services yet). */
  fraction: number;
  /** Records every service is done with: the least advanced service's share of the list's records. */
  done: number;
  /** The list's records. */
  total: number;
  /** Each service's own progress, in the list's order. */
  services: ServiceProgress[];
  list: ListResource;
}

export function progressOf(list: ListResource): Progress {
  const services = (Object.entries(list.services) as [ServiceName, ListResource['services'][ServiceName]][]).flatMap(([name, s]) =>
    s ? [serviceProgress(name, s)] : [],
  );
  const least = services.reduce<ServiceProgress | undefined>(
    (min, s) => (min === undefined || s.fraction < min.fraction ? s : min),
    undefined,
  );
  const total = list.records;
  // A service that has completed any record has started, even when its count runs past its input
  // (its `done` is clipped to the input for display, so the raw count decides here).
  const started = Object.values(list.services).some((s) => s !== undefined && (s.status !== 'Pending' || s.completed_count > 0));
  const inProgress = list.status === 'Pending' && started;
  return {
    status: list.status,
    label: inProgress ? `${list.status} (in progress)` : list.status,
    inProgress,
    fraction: least?.fraction ?? 0,
    done: least === undefined ? 0 : recordsDone(least, total),
    total,
    services,
    list,
  };
}

function serviceProgress(name: ServiceName, service: NonNullable<ListResource['services'][ServiceName]>): ServiceProgress {
  const total = service.input_count;
  const done = Math.min(service.completed_count, total);
  const fraction = total > 0 ? done / total : service.status === 'Completed' ? 1 : 0;
  return { name, status: service.status, done, total, fraction };
}

/** The service's share as records of the list: its own count when it has the list's records (it always does today). */
function recordsDone(service: ServiceProgress, records: number): number {
  if (service.total === 0) return service.fraction === 1 ? records : 0;
  // done × records is an exact integer here (at most 10¹² ≪ 2⁵³), so the floor is exact too.
  return Math.min(records, Math.floor((service.done * records) / service.total));
}
