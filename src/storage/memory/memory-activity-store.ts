import type { ActivityEvent, ActivityStats } from '../../people/person.js';
import { checkedEvents, checkWindows, eventKey, noActivity } from '../../people/activity-rules.js';
import type { ActivityStore } from '../../people/activity-store.js';

export class MemoryActivityStore implements ActivityStore {
  private readonly keys = new Set<string>();
  private readonly byEmail = new Map<string, ActivityEvent[]>();

  async hasAny(): Promise<boolean> {
    return this.keys.size > 0;
  }

  async add(events: ActivityEvent[]): Promise<number> {
    let added = 0;
    for (const event of checkedEvents(events)) {
      const key = eventKey(event);
      if (this.keys.has(key)) continue;
      this.keys.add(key);
      let list = this.byEmail.get(event.email);
      if (!list) this.byEmail.set(event.email, (list = []));
      list.push(event);
      added += 1;
    }
    return added;
  }

  async statsFor(emails: string[], windows: { since6m: string; since12m: string }): Promise<Map<string, ActivityStats>> {
    checkWindows(windows);
    const stats = new Map<string, ActivityStats>();
    for (const email of emails) {
      const s = noActivity();
      const sources = new Set<string>();
      for (const e of this.byEmail.get(email) ?? []) {
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
}
