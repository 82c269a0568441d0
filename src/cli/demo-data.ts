/**
 * The small synthetic dataset a first start loads with the demo key (decisions §2), so every
 * endpoint answers something real straight away. Deterministic: the same 1,000 people each time.
 */
import { activityFrom } from '../enrichment/activity-record.js';
import type { ActivityEvent, NewPerson } from '../enrichment/person.js';
import { personFrom } from '../enrichment/person-record.js';
import { generatePeople } from '../generate/people.js';
import type { Storage } from '../storage/interfaces.js';

export const DEMO_PEOPLE = 1_000;

/** Loads the dataset and returns one of its addresses for the printed example. */
export async function loadDemoData(storage: Storage, today: string): Promise<string | undefined> {
  const people: NewPerson[] = [];
  const events: ActivityEvent[] = [];
  const now = new Date(`${today}T12:00:00Z`);
  for (const generated of generatePeople({ count: DEMO_PEOPLE, seed: 'demo', today })) {
    const parsed = personFrom(generated.person as unknown as Record<string, unknown>);
    if ('person' in parsed) people.push(parsed.person);
    for (const record of generated.activity) {
      const event = activityFrom(record as unknown as Record<string, unknown>, now);
      if ('activity' in event) events.push(event.activity);
    }
  }
  await storage.people.upsert(people);
  await storage.activity.add(events);
  return people[0]?.emails[0];
}
