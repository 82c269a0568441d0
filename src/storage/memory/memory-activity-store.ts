import type { ActivityEvent, ActivityStats } from '../../people/person.js';
import {
  noActivity,
  type ActivityBatch,
  type ActivityStore,
  type ActivityWindows,
  type PreparedActivityEvent,
} from '../../people/activity-store.js';

/** The stored events' identity: email, source, day and event. */
const keyOf = (e: ActivityEvent) => `${e.email}\u0000${e.source}\u0000${e.seenOn}\u0000${e.event}`;

export class MemoryActivityStore implements ActivityStore {
  private readonly keys = new Set<string>();
  private readonly byEmail = new Map<string, ActivityEvent[]>();
  private readonly byMailbox = new Map<string, ActivityEvent[]>();

  async hasAny(): Promise<boolean> {
    return this.keys.size > 0;
  }

  async add(batch: ActivityBatch): Promise<number> {
    let added = 0;
    for (const event of batch.events) {
      const key = keyOf(event);
      if (this.keys.has(key)) continue;
      this.keys.add(key);
      push(this.byEmail, event.email, event);
      if (event.mailbox !== null) push(this.byMailbox, event.mailbox, event);
      added += 1;
    }
    return added;
  }

  async statsFor(emails: string[], windows: ActivityWindows): Promise<Map<string, ActivityStats>> {
    return statsOf(this.byEmail, emails, windows);
  }

  async statsForMailboxes(mailboxes: string[], windows: ActivityWindows): Promise<Map<string, ActivityStats>> {
    return statsOf(this.byMailbox, mailboxes, windows);
  }
}

function push(map: Map<string, ActivityEvent[]>, key: string, event: PreparedActivityEvent): void {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  list.push({ email: event.email, source: event.source, seenOn: event.seenOn, event: event.event });
}

function statsOf(events: ReadonlyMap<string, ActivityEvent[]>, keys: string[], windows: ActivityWindows): Map<string, ActivityStats> {
  const stats = new Map<string, ActivityStats>();
  for (const email of keys) {
    const s = noActivity();
    const sources = new Set<string>();
    for (const e of events.get(email) ?? []) {
      if (s.firstSeen === null || e.seenOn < s.firstSeen) s.firstSeen = e.seenOn;
      if (e.seenOn >= windows.since6m) s.events6m += 1;
      if (e.seenOn >= windows.since12m) {
        sources.add(e.source);
        if (e.event === 'open' && (s.lastOpen12m === null || e.seenOn > s.lastOpen12m)) s.lastOpen12m = e.seenOn;
      }
    }
    s.sources12m = sources.size;
    stats.set(email, s);
  }
  return stats;
}
