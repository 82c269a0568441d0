/**
 * The activity stores' arguments, checked and prepared here so that a bad event fails the same
 * way whatever engine stores it (SQLite would store any text happily), and the stores check and
 * compute nothing.
 */
import type { ActivityBatch, ActivityWindows, PreparedActivityEvent } from './activity-store.js';
import { mailboxKey } from './mailbox.js';
import type { ActivityEvent } from './person.js';

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const EVENTS: ReadonlySet<string> = new Set(['seen', 'open']);

/** The batch a store's `add` takes: the events validated, each exact repeat once (first occurrence order), with their mailbox keys. */
export function prepareActivity(events: readonly ActivityEvent[]): ActivityBatch {
  const unique = new Map<string, PreparedActivityEvent>();
  for (const e of events) {
    if (typeof e.email !== 'string' || e.email === '') throw new RangeError('activity email must be a non-empty string');
    if (typeof e.source !== 'string' || e.source === '') throw new RangeError('activity source must be a non-empty string');
    if (!DAY.test(e.seenOn)) throw new RangeError(`activity day must be YYYY-MM-DD, got "${e.seenOn}"`);
    if (!EVENTS.has(e.event)) throw new RangeError(`activity event must be seen or open, got "${e.event}"`);
    const key = `${e.email}\u0000${e.source}\u0000${e.seenOn}\u0000${e.event}`;
    if (!unique.has(key))
      unique.set(key, { email: e.email, source: e.source, seenOn: e.seenOn, event: e.event, mailbox: mailboxKey(e.email) ?? null });
  }
  return { events: [...unique.values()] };
}

/** The windows a store's `statsFor` takes, as given once each start is a day. */
export function checkedWindows<W extends ActivityWindows>(windows: W): W {
  for (const name of ['since6m', 'since12m'] as const) {
    if (!DAY.test(windows[name])) throw new RangeError(`${name} must be YYYY-MM-DD, got "${windows[name]}"`);
  }
  return windows;
}
