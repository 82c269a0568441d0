/**
 * The small synthetic dataset a first start loads with the demo key (decisions §2, MAILSURE_DEMO):
 * the same 1,000 people each time, seed `demo`, with activity ending on the day they are loaded.
 * Migration 0011, which finds the demo people of earlier versions, keeps its own frozen copy of
 * what this made then (storage/migrations/frozen/0011-demo-dataset.ts).
 */
import { activityFrom } from '../people/activity-record.js';
import type { ActivityEvent, NewPerson } from '../people/person.js';
import { personFrom } from '../people/person-record.js';
import { generatePeople } from './people.js';

export const DEMO_PEOPLE = 1_000;
export const DEMO_SEED = 'demo';

/** The demo people and their activity as loaded on `today` (`YYYY-MM-DD`). */
export function demoDataset(today: string): { people: NewPerson[]; events: ActivityEvent[] } {
  const people: NewPerson[] = [];
  const events: ActivityEvent[] = [];
  const now = new Date(`${today}T12:00:00Z`);
  for (const generated of generatePeople({ count: DEMO_PEOPLE, seed: DEMO_SEED, today })) {
    const parsed = personFrom(generated.person as unknown as Record<string, unknown>);
    if ('person' in parsed) people.push(parsed.person);
    for (const record of generated.activity) {
      const event = activityFrom(record as unknown as Record<string, unknown>, now);
      if ('activity' in event) events.push(event.activity);
    }
  }
  return { people, events };
}
