/** What engagement metrics need from the activity store (storage/ implements it on every engine). */
import type { ActivityEvent, ActivityStats } from './person.js';

export interface ActivityStore {
  /**
   * Adds the events of a batch that activity-rules.ts `prepareActivity` checked, ignoring those
   * already stored (same email, source, day and event); returns how many were new. `demo`: the
   * demo people's events, which `mailsure demo remove` deletes; an event added without it that
   * repeats a demo one becomes the operator's (and counts as new).
   */
  add(batch: ActivityBatch, marks?: { demo?: boolean }): Promise<number>;
  /** Whether any event is stored: lets verification skip engagement lookups on an empty store. */
  hasAny(): Promise<boolean>;
  /** Stats per address for the windows (activity-rules.ts `checkedWindows` checks them). */
  statsFor(emails: string[], windows: ActivityWindows): Promise<Map<string, ActivityStats>>;
  /**
   * Stats per mailbox key (mailbox.ts): the events of every stored spelling of that mailbox
   * together. mailbox-lookup.ts `activityByEmail` is the call to use (the exact spelling first).
   */
  statsForMailboxes(mailboxes: string[], windows: ActivityWindows): Promise<Map<string, ActivityStats>>;
}

/** What `add` writes (activity-rules.ts `prepareActivity`): every event checked, each exact repeat once, in first-occurrence order. */
export interface ActivityBatch {
  readonly events: readonly PreparedActivityEvent[];
}

/** An event as stored: with its address's mailbox key (mailbox.ts), null where the domain has no rule. */
export interface PreparedActivityEvent extends ActivityEvent {
  mailbox: string | null;
}

/** The first days (`YYYY-MM-DD`) of the windows `statsFor` counts events and sources in. */
export interface ActivityWindows {
  since6m: string;
  since12m: string;
}

/** What an address without any event gets. */
export function noActivity(): ActivityStats {
  return { firstSeen: null, events6m: 0, sources12m: 0, lastOpen12m: null };
}
