/**
 * Applies a state event (states.ts) to a stored list with a compare-and-set on the row it read
 * (its status and version), so a worker's transition and a caller's cancel or purchase never
 * overwrite each other, even when neither changes the status: a lost race re-reads the list and
 * decides again.
 */
import type { ListPatch, ListRow, ListStore } from '../list-record.js';
import { transition, type ListEvent, type ListState } from '../states.js';

export function stateOf(list: ListRow): ListState {
  return {
    status: list.status,
    report: list.report,
    purchased: list.purchase !== null,
    services: Object.fromEntries(Object.entries(list.services).map(([name, s]) => [name, s.status])),
  };
}

/**
 * The list after the event, or undefined when the event does not apply (the list is finished,
 * or the event is out of order); `extra` is written along with the new state.
 */
export async function applyEvent(
  store: ListStore,
  listId: number,
  event: ListEvent,
  extra: (list: ListRow) => ListPatch = () => ({}),
): Promise<ListRow | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const list = await store.get(listId);
    if (!list) return undefined;
    const next = transition(stateOf(list), event);
    if (!next.ok) return undefined;
    const patch = extra(list);
    const services = { ...list.services, ...(patch.services ?? {}) };
    for (const [name, status] of Object.entries(next.value.services)) {
      const current = services[name as keyof typeof services];
      services[name as keyof typeof services] = { inputCount: current?.inputCount ?? list.records, ...current, status: status! };
    }
    const updated = await store.update(listId, { ...patch, status: next.value.status, services }, [list.status], list.version);
    if (updated) return updated;
  }
  throw new Error(`list ${listId}: could not apply ${event.type} (the list kept changing)`);
}
