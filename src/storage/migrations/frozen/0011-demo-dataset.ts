/**
 * Migration 0011's own copy of what it needs of the demo dataset (generate/demo-dataset.ts) that
 * the versions before it loaded at a first start, so that what 0011 recognises does not change
 * when the live generator does. The dataset moves with the day it was loaded (the last order's
 * date, activity dates); the rest is the same every day. Kept here for each demo person
 * (`P0000001` to `P0001000`, one line of 0011-demo-data.ts each, in order):
 *
 * - a fingerprint of what does not move: name, postal address and the fields as stored, with the
 *   last order's date left out (`fingerprint0011`);
 * - how many days before the load day the last order was (`-` for none);
 * - for each of the person's addresses, in their order, the events the generator made: days
 *   before the load day, source and kind, each as four base-36 digits of
 *   `daysBefore × 96 + source × 2 + (open ? 1 : 0)` (sources by their index in SOURCES_0011).
 *
 * 0011-demo-dataset.test.ts derives all of it from the live generator for several days and holds
 * the data to a fixed digest. Frozen: never edit this file or 0011-demo-data.ts.
 */
import { createHash } from 'node:crypto';
import { demoData0011 } from './0011-demo-data.js';

/** The demo people's keys run from `P0000001` to this one's. */
export const DEMO_PEOPLE_0011 = 1_000;

/** The generator's activity sources, in its order (generate/activity.ts `ACTIVITY_SOURCES`). */
export const SOURCES_0011: readonly string[] = [
  ...['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((l) => `newsletter-${l}`),
  ...['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].map((l) => `shop-${l}`),
  ...['a', 'b', 'c', 'd', 'e', 'f'].map((l) => `news-${l}`),
  ...['a', 'b', 'c', 'd', 'e'].map((l) => `app-${l}`),
  ...['a', 'b', 'c', 'd'].map((l) => `deals-${l}`),
  ...['a', 'b', 'c', 'd'].map((l) => `travel-${l}`),
  ...['a', 'b', 'c'].map((l) => `survey-${l}`),
  ...['a', 'b', 'c'].map((l) => `sweeps-${l}`),
  ...['a', 'b', 'c'].map((l) => `forum-${l}`),
  ...['a', 'b'].map((l) => `events-${l}`),
];

/** A person as a people row stores them: `fields` is the JSON text the store wrote. */
export interface StoredPerson0011 {
  first_name: string;
  last_name: string;
  address: string;
  zip: string;
  fields: string;
}

export interface DemoEvent0011 {
  source: string;
  seenOn: string;
  event: 'seen' | 'open';
}

const LAST_ORDER = /"rfm_last_order":"(\d{4}-\d{2}-\d{2})"/;
const DAY_MS = 86_400_000;

/** What does not move with the load day, as a fingerprint, and the last order's date (undefined for none). */
export function fingerprint0011(row: StoredPerson0011): { fingerprint: string; lastOrder: string | undefined } {
  const lastOrder = LAST_ORDER.exec(row.fields)?.[1];
  const fields = row.fields.replace(LAST_ORDER, '"rfm_last_order":""');
  const text = JSON.stringify([row.first_name, row.last_name, row.address, row.zip, fields]);
  return { fingerprint: createHash('sha256').update(text).digest('hex').slice(0, 16), lastOrder };
}

export const dayNumber = (day: string): number => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
export const dayText = (n: number): string => new Date(n * DAY_MS).toISOString().slice(0, 10);

interface DemoPerson {
  fingerprint: string;
  lastOrderDaysBefore: number | undefined;
  /** Per address, in order: the encoded events. */
  events: number[][];
}

let people: Map<string, DemoPerson> | undefined;

function demoPeople(): Map<string, DemoPerson> {
  if (people) return people;
  people = new Map();
  for (const [i, line] of demoData0011().trim().split('\n').entries()) {
    const [fingerprint, lastOrder, events = ''] = line.split(' ');
    people.set(`P${String(i + 1).padStart(7, '0')}`, {
      fingerprint: fingerprint!,
      lastOrderDaysBefore: lastOrder === '-' ? undefined : Number(lastOrder),
      events: events.split(',').map((e) => (e.match(/.{4}/g) ?? []).map((code) => parseInt(code, 36))),
    });
  }
  return people;
}

/** The demo dataset as an earlier version loaded it on `day` (`YYYY-MM-DD`). */
export function demoDay0011(day: string): {
  /** Whether the stored person is the demo person of that key loaded that day: name, postal address and fields. */
  isDemoPerson(personKey: string, row: StoredPerson0011): boolean;
  /** The events the generator made that day for the person's address at `position` (0 first). */
  events(personKey: string, position: number): DemoEvent0011[];
} {
  const today = dayNumber(day);
  return {
    isDemoPerson(personKey, row) {
      const person = demoPeople().get(personKey);
      if (person === undefined) return false;
      const { fingerprint, lastOrder } = fingerprint0011(row);
      const expected = person.lastOrderDaysBefore === undefined ? undefined : dayText(today - person.lastOrderDaysBefore);
      return fingerprint === person.fingerprint && lastOrder === expected;
    },
    events(personKey, position) {
      return (demoPeople().get(personKey)?.events[position] ?? []).map((code) => ({
        source: SOURCES_0011[(code % 96) >> 1]!,
        seenOn: dayText(today - Math.floor(code / 96)),
        event: code % 2 === 1 ? 'open' : 'seen',
      }));
    },
  };
}
