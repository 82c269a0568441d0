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

/** Records done of records to do, over every service the list runs. */
export function progress(list: ListResource): { done: number; total: number } {
  let done = 0;
  let total = 0;
  for (const [, service] of services(list)) {
    done += service.completed_count;
    total += service.input_count;
  }
  return { done, total };
}
