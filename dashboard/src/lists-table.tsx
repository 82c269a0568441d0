/** A table of lists with their state and progress: the key's own (lists page) or every key's (operator view). */
import type { ListResource } from './api.js';
import { progress } from './list-state.js';

export function ListProgress({ list }: { list: ListResource }) {
  const { done, total } = progress(list);
  const label = total ? `${done.toLocaleString('en')} of ${total.toLocaleString('en')} records` : 'Not started';
  return (
    <span class="progress">
      <progress max={Math.max(total, 1)} value={done} aria-label={`Progress of ${list.name}: ${label}`} />
      <span class="hint">{label}</span>
    </span>
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

/** `linked`: each list's name opens it (only for the signed-in key's own lists). */
export function ListsTable({ lists, linked, withKey }: { lists: Row[]; linked: boolean; withKey: boolean }) {
  return (
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
                <StateBadge status={list.status} />
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
  );
}
