/**
 * Argument checks and shapes shared by the activity stores, so a bad event fails the same way on
 * every engine (SQLite would store any text happily).
 */
import type { ActivityEvent, ActivityStats } from './person.js';

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const EVENTS: ReadonlySet<string> = new Set(['seen', 'open']);

/** The events, validated, each exact repeat once (first occurrence order). */
export function checkedEvents(events: readonly ActivityEvent[]): ActivityEvent[] {
  const unique = new Map<string, ActivityEvent>();
  for (const e of events) {
    if (typeof e.email !== 'string' || e.email === '') throw new RangeError('activity email must be a non-empty string');
    if (typeof e.source !== 'string' || e.source === '') throw new RangeError('activity source must be a non-empty string');
    if (!DAY.test(e.seenOn)) throw new RangeError(`activity day must be YYYY-MM-DD, got "${e.seenOn}"`);
    if (!EVENTS.has(e.event)) throw new RangeError(`activity event must be seen or open, got "${e.event}"`);
    const key = eventKey(e);
    if (!unique.has(key)) unique.set(key, { email: e.email, source: e.source, seenOn: e.seenOn, event: e.event });
  }
  return [...unique.values()];
}

export function eventKey(e: ActivityEvent): string {
  return `${e.email}\u0000${e.source}\u0000${e.seenOn}\u0000${e.event}`;
}

export function checkWindows(windows: { since6m: string; since12m: string }): void {
  for (const name of ['since6m', 'since12m'] as const) {
    if (!DAY.test(windows[name])) throw new RangeError(`${name} must be YYYY-MM-DD, got "${windows[name]}"`);
  }
}

/** What an address without any event gets. */
export function noActivity(): ActivityStats {
  return { firstSeen: null, events6m: 0, sources12m: 0, lastOpen12m: null };
}
