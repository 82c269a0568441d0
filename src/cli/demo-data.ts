/**
 * The small synthetic dataset a first start loads with the demo key (decisions §2), so every
 * endpoint answers something real straight away. Marked as demo, so `mailsure demo remove`
 * deletes exactly these people and their activity.
 */
import { demoDataset } from '../generate/demo-dataset.js';
import { peopleBatch } from '../identity/match/people-batch.js';
import { prepareActivity } from '../people/activity-rules.js';
import type { Storage } from '../wiring/stores.js';

/** Loads the dataset and returns one of its addresses for the printed example. */
export async function loadDemoData(storage: Storage, today: string): Promise<string | undefined> {
  const { people, events } = demoDataset(today);
  await storage.people.upsert(peopleBatch(people), { demo: true });
  await storage.activity.add(prepareActivity(events), { demo: true });
  return people[0]?.emails[0];
}
