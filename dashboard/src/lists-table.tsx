/** A table of lists with their state and progress: the key's own (lists page) or every key's (operator view). */
import type { ListResource } from './api.js';
import { inProgress, progress } from './list-state.js';

const count = (n: number) => n.toLocaleString('en');

/** The bar is the least advanced service's fraction; with several services, each one's own records below it. */
export function ListProgress({ list }: { list: ListResource }) {
  const p = progress(list);
  const label = p ? `${count(p.done)} of ${count(p.total)} records` : 'Not started';
  return (
    <span class="progress">
      <progress max={Math.max(p?.total ?? 0, 1)} value={p?.done ?? 0} aria-label={`Progress of ${list.name}: ${label}`} />
      <span class="hint" data-progress>
        {label}
      </span>
      {p && p.services.length > 1 && (
        <span class="hint service-progress" data-service-progress>
          {p.services.map((s) => `${s.name} ${count(s.done)} of ${count(s.total)}`).join(' · ')}
        </span>
      )}
    </span>
  );
}

/** A list's state as the API names it, and "in progress" beside `Pending` once a service has begun. */
export function ListState({ list }: { list: ListResource }) {
  return (
    <>
      <StateBadge status={list.status} />
      {inProgress(list) && (
        <span class="hint" data-in-progress>
          {' '}
          in progress
        </span>
      )}
    </>
  );
}

export function StateBadge({ status }: { status: string }) {
  return (
    <span class={`state state-${status.toLowerCase()}`} data-state={status}>
      {status}
    </span>
  );
}

type Row = ListResource & { key_name?: string };

/** `linked`: each list's name opens it (only for the signed-in key's own lists). Scrolls sideways by itself on a narrow screen. */
export function ListsTable({ lists, linked, withKey }: { lists: Row[]; linked: boolean; withKey: boolean }) {
  return (
    <div class="table-scroll">
      <table class="lists">
        <thead>
          <tr>
            {withKey && <th scope="col">Key</th>}
            <th scope="col">List</th>
            <th scope="col">State</th>
            <th scope="col">Progress</th>
            <th scope="col">Records</th>
            <th scope="col">Submitted</th>
          </tr>
        </thead>
        <tbody>
          {lists.map((list) => {
            const name = (
              <>
                {list.name} <span class="hint">#{list.list_id}</span>
              </>
            );
            return (
              <tr key={list.list_id} data-list-id={list.list_id}>
                {withKey && <td>{list.key_name}</td>}
                <td>{linked ? <a href={`#/lists/${list.list_id}`}>{name}</a> : name}</td>
                <td>
                  <ListState list={list} />
                </td>
                <td>
                  <ListProgress list={list} />
                </td>
                <td>{list.records.toLocaleString('en')}</td>
                <td>
                  <time dateTime={list.created_at}>{new Date(list.created_at).toLocaleString('en')}</time>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
