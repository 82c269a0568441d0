/**
 * The list resource as the API answers it (status, list of lists, callback body): api-reference
 * "List resource", plus `error` for Invalid and Error lists (decisions §6).
 */
import type { ListRow, ListServiceName } from '../list-record.js';
import { isFinished } from '../states.js';

export interface ListServiceBody {
  input_count: number;
  completed_count: number;
  status: string;
  reporting?: unknown;
}

export interface ListBody {
  list_id: number;
  name: string;
  status: string;
  records: number;
  size_bytes: number;
  created_at: string;
  services: Partial<Record<ListServiceName, ListServiceBody>>;
  error?: string;
}

/** `progress`: records committed so far (the chunks' sum), for services still running. */
export function renderList(list: ListRow, progress: number): ListBody {
  const services: ListBody['services'] = {};
  for (const [name, state] of Object.entries(list.services) as [ListServiceName, NonNullable<ListRow['services'][ListServiceName]>][]) {
    const body: ListServiceBody = {
      input_count: state.inputCount,
      completed_count: state.completedCount ?? Math.min(progress, state.inputCount),
      status: state.status,
    };
    if (state.reporting !== undefined) body.reporting = state.reporting;
    services[name] = body;
  }
  const out: ListBody = {
    list_id: list.id,
    name: list.name,
    status: list.status,
    records: list.records,
    size_bytes: list.sizeBytes,
    created_at: list.createdAt,
    services,
  };
  if (list.error) out.error = list.error;
  return out;
}

/**
 * Decisions §6: status answers carry `Retry-After: 5` while the list is not finished; an operator
 * may set other seconds (MAILSURE_LIST_POLL_SECONDS).
 */
export function retryAfter(list: ListRow, seconds: number): string | undefined {
  return isFinished(list.status) ? undefined : String(seconds);
}
