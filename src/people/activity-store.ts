/** What engagement metrics need from the activity store (storage/ implements it on every engine). */
import type { ActivityEvent, ActivityStats } from './person.js';

export interface ActivityStore {
  /**
   * Adds events, ignoring exact repeats (same email, source, day and event); returns how many were
   * new. `demo`: the demo people's events, which `mailsure demo remove` deletes; an event added
   * without it that repeats a demo one becomes the operator's (and counts as new).
   */
  add(events: ActivityEvent[], marks?: { demo?: boolean }): Promise<number>;
  /** Whether any event is stored: lets verification skip engagement lookups on an empty store. */
  hasAny(): Promise<boolean>;
  /** Stats per address for the windows starting on the given days (`YYYY-MM-DD`). */
  statsFor(emails: string[], windows: { since6m: string; since12m: string }): Promise<Map<string, ActivityStats>>;
}
