/** What the pages read from a list resource: whether it is finished, its progress, its services' names. */
import type { ListResource } from './api.js';

/** States after which nothing changes by itself (api-reference "States and transitions"). */
export const FINAL_STATES: ReadonlySet<string> = new Set(['Results', 'Cancelled', 'Invalid', 'Error']);

export const isFinished = (list: ListResource) => FINAL_STATES.has(list.status);

export const SERVICE_NAMES: Record<string, string> = {
  email_validation: 'Verification',
  email_intelligence: 'Enrichment',
  email_append: 'Email append',
};

type Service = { input_count: number; completed_count: number; status: string };

export function services(list: ListResource): [string, Service][] {
  const all: [string, Service | undefined][] = Object.entries(list.services);
  return all.filter((entry): entry is [string, Service] => entry[1] !== undefined);
}

/** One service's own progress: its records done of its records to do. */
export interface ServiceProgress {
  name: string;
  done: number;
  total: number;
}

export interface Progress {
  /** The least advanced service's records (each service runs over the same records: never their sum). */
  done: number;
  total: number;
  /** Each service's own fraction, in the resource's order. */
  services: ServiceProgress[];
}

const fraction = (s: ServiceProgress) => (s.total === 0 ? 1 : s.done / s.total);

/** Progress as records: the overall bar is the least advanced service's fraction; null before any service is set up. */
export function progress(list: ListResource): Progress | null {
  const each = services(list).map(([name, s]) => ({
    name: SERVICE_NAMES[name] ?? name,
    done: Math.min(s.completed_count, s.input_count),
    total: s.input_count,
  }));
  if (each.length === 0) return null;
  const least = each.reduce((a, b) => (fraction(b) < fraction(a) ? b : a));
  return { done: least.done, total: least.total, services: each };
}

/** A Pending list where some service has begun: the state's name stays the contract's, with this beside it. */
export function inProgress(list: ListResource): boolean {
  return list.status === 'Pending' && services(list).some(([, s]) => s.completed_count > 0 || s.status !== 'Pending');
}
