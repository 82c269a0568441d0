/**
 * Activity histories (decisions §2 activity records) for one address, over the ~3 years before
 * `today`. Each address gets a profile that spreads the email activity metrics over their range:
 *
 * - never seen (12 %): no events, so `date_first_seen` is `now` and longevity 0;
 * - new (8 %): first seen within the last 30 days (longevity 1);
 * - recent (25 %): first seen 1 to 12 months ago (longevity 2);
 * - old (55 %): first seen 1 to 3 years ago (longevity 3), 15 % of them dormant for the last
 *   6+ months (velocity and popularity 0 however old).
 *
 * Engagement (log-normal) sets how many events (velocity) and sources (popularity), and addresses
 * still in use have half their later events in the last 6 months; an open rate
 * (none for 30 %) turns some `seen` events into a `seen` plus an `open` of the same source a few
 * days later. At most 40 events an address.
 */
import type { DayFormatter } from './days.js';
import type { ActivityImportRecord } from './records.js';
import { WeightedTable, type Rng } from './random.js';

const SOURCE_KINDS: readonly [string, number][] = [
  ['newsletter', 8],
  ['shop', 10],
  ['news', 6],
  ['app', 5],
  ['deals', 4],
  ['travel', 4],
  ['survey', 3],
  ['sweeps', 3],
  ['forum', 3],
  ['events', 2],
];

/** `newsletter-a`, `shop-b`, …: 48 sources, a few of them much more common than the rest. */
export const ACTIVITY_SOURCES: readonly string[] = SOURCE_KINDS.flatMap(([kind, n]) =>
  Array.from({ length: n }, (_, i) => `${kind}-${String.fromCharCode(97 + i)}`),
);

const MAX_EVENTS = 40;
const MAX_SEEN = 30;
const HORIZON_DAYS = 1095;

export class ActivityMaker {
  private readonly sources: WeightedTable<number>;
  private readonly scratch = new Float64Array(MAX_EVENTS);

  constructor(private readonly today: number) {
    // Interleave kinds so that popularity does not follow the kind.
    const order = ACTIVITY_SOURCES.map((_, i) => i).sort((a, b) => ((a * 7919) % 48) - ((b * 7919) % 48));
    const weights = new Array<number>(ACTIVITY_SOURCES.length).fill(0);
    order.forEach((source, rank) => (weights[source] = 1 / (rank + 3)));
    this.sources = new WeightedTable(
      ACTIVITY_SOURCES.map((_, i) => i),
      weights,
    );
  }

  /**
   * One address's events, sorted, each as a number: day × 1024 + source × 2 + (open ? 1 : 0).
   * Numbers sort fast and cost no objects; `activityRecords` and `activityLines` decode them.
   */
  eventsFor(rng: Rng): Float64Array {
    const profile = rng.float();
    if (profile < 0.12) return NO_EVENTS;
    let firstAgo: number;
    let lastAgo: number;
    if (profile < 0.2) {
      firstAgo = rng.int(0, 29);
      lastAgo = rng.int(0, firstAgo);
    } else if (profile < 0.45) {
      firstAgo = rng.int(31, 364);
      lastAgo = Math.min(firstAgo, Math.floor(-Math.log(1 - rng.float()) * 25));
    } else {
      firstAgo = rng.int(366, HORIZON_DAYS);
      lastAgo = rng.chance(0.15) ? rng.int(190, Math.min(firstAgo, 700)) : Math.min(firstAgo, Math.floor(-Math.log(1 - rng.float()) * 30));
    }
    // Addresses still in use are busier lately: half their later events fall in the last 6 months.
    const recentUntil = lastAgo <= 182 && firstAgo > 182 ? 182 : -1;

    const engagement = Math.exp(rng.normal() * 0.9);
    const spanMonths = (firstAgo - lastAgo) / 30;
    const seen = Math.min(MAX_SEEN, 1 + Math.floor(engagement * 0.6 * (1 + spanMonths / 4)));
    const sourceCount = Math.min(seen, 12, 1 + Math.floor(Math.exp(rng.normal()) * 1.4));
    const mine: number[] = [];
    for (let tries = 0; mine.length < sourceCount && tries < sourceCount * 4; tries++) {
      const s = this.sources.draw(rng);
      if (!mine.includes(s)) mine.push(s);
    }
    const openRate = rng.chance(0.3) ? 0 : rng.float() * 0.7;

    const keys = this.scratch;
    let n = 0;
    for (let i = 0; i < seen && n < MAX_EVENTS; i++) {
      const ago = i === 0 ? firstAgo : i === 1 ? lastAgo : rng.int(lastAgo, recentUntil !== -1 && rng.chance(0.5) ? recentUntil : firstAgo);
      const source = i < mine.length ? mine[i]! : mine[rng.below(mine.length)]!;
      keys[n++] = (this.today - ago) * 1024 + source * 2;
      if (n < MAX_EVENTS && openRate > 0 && rng.chance(openRate)) {
        keys[n++] = (this.today - Math.max(0, ago - rng.int(0, 3))) * 1024 + source * 2 + 1;
      }
    }
    return keys.slice(0, n).sort();
  }
}

const NO_EVENTS = new Float64Array(0);

export function activityRecords(email: string, keys: Float64Array, days: DayFormatter, into: ActivityImportRecord[]): void {
  for (const key of keys) {
    const day = Math.floor(key / 1024);
    const rest = key - day * 1024;
    into.push({ email, source: ACTIVITY_SOURCES[rest >> 1]!, seen_at: days.format(day), event: rest & 1 ? 'open' : 'seen' });
  }
}

/**
 * The NDJSON lines of `activityRecords`, in one string: what the writer needs, without an object
 * per event. Generated addresses and sources hold only [a-z0-9._-]: nothing to escape.
 */
export function activityLines(email: string, keys: Float64Array, days: DayFormatter): string {
  let out = '';
  const head = `{"email":"${email}","source":"`;
  for (const key of keys) {
    const day = Math.floor(key / 1024);
    const rest = key - day * 1024;
    out += `${head}${ACTIVITY_SOURCES[rest >> 1]}","seen_at":"${days.format(day)}","event":"${rest & 1 ? 'open' : 'seen'}"}\n`;
  }
  return out;
}
