/**
 * How `mailsure lists` prints a list: one summary line (a Pending list whose services have started
 * says so), then a line per service with its own count.
 */
import { progressOf, type ListResource } from '@mailsure/client';
import { table } from '../output.js';

export function describeList(list: ListResource): string[] {
  const head = `list ${list.list_id} ${list.name}: ${progressOf(list).label}, ${list.records} records, ${list.size_bytes} bytes, created ${list.created_at}`;
  const services = Object.entries(list.services).flatMap(([name, service]) =>
    service ? [`  ${name}: ${service.status} ${service.completed_count}/${service.input_count}`] : [],
  );
  return [head, ...services, ...(list.error ? [`  error: ${list.error}`] : [])];
}

export function listTable(lists: readonly ListResource[]): string {
  return table([
    ['ID', 'NAME', 'STATUS', 'RECORDS', 'CREATED'],
    ...lists.map((l) => [String(l.list_id), l.name, l.status, String(l.records), l.created_at]),
  ]);
}
