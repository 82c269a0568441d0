/**
 * Acceptance of the enrichment issue: a generated 100k dataset — people and their activity —
 * imported through the real import commands into a real SQLite file, then /v5/td lookups by every
 * identifier type return the generated truth, and the activity metrics of sampled addresses are
 * the ones docs/enrichment.md's formulas give on the generated events (computed here from the
 * generator's output, not by the code under test).
 */
import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importActivity } from '../../src/cli/import/import-activity.js';
import { importPeople } from '../../src/cli/import/import-people.js';
import type { EamObject } from '../../src/enrichment/activity-metrics.js';
import { generatePeople, type GeneratedPerson } from '../../src/generate/people.js';
import type { ActivityImportRecord } from '../../src/generate/records.js';
import { writeDataset } from '../../src/generate/write-dataset.js';
import type { Storage } from '../../src/storage/interfaces.js';
import { openStorage } from '../../src/storage/open-storage.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

const COUNT = 100_000;
const TODAY = '2026-11-22';
/** Today − 1, 6 and 12 calendar months (docs/enrichment.md), written out rather than computed. */
const SINCE_1M = '2026-10-22';
const SINCE_6M = '2026-05-22';
const SINCE_12M = '2025-11-22';
const clock = { now: () => Date.parse(`${TODAY}T12:00:00Z`) };
const dir = mkdtempSync(join(tmpdir(), 'mailsure-100k-'));
let storage: Storage;
let t: TestApp;
let key: string;

const quiet = new Writable({ write: (_c, _e, done) => done() }) as unknown as NodeJS.WriteStream;

beforeAll(async () => {
  const file = join(dir, 'people.ndjson');
  const activityFile = join(dir, 'activity.ndjson');
  const out = createWriteStream(file);
  const activityOut = createWriteStream(activityFile);
  const written = await writeDataset({ count: COUNT, seed: 'acceptance', today: TODAY, people: out, activity: activityOut });
  out.end();
  activityOut.end();
  await Promise.all([finished(out), finished(activityOut)]);
  expect(written.activity).toBeGreaterThan(COUNT);
  storage = await openStorage({ dataDir: dir });
  const original = process.stdout.write;
  process.stdout.write = (() => true) as never;
  try {
    const result = await importPeople(storage, file, { stream: quiet });
    expect(result).toMatchObject({ loaded: COUNT, rejected: 0 });
    const activity = await importActivity(storage, activityFile, { now: new Date(clock.now()), stream: quiet });
    expect(activity).toMatchObject({ status: 'finished', loaded: written.activity, rejected: 0 });
  } finally {
    process.stdout.write = original;
  }
  t = await makeTestApp({ storage, clock });
  key = (await t.key('acceptance', { services: 'enrichment,postal_append,eam', rate: '1000000' })).key;
  // A bound for a hang, not a speed: 80 s on a quiet CI machine, over 180 s on one loaded by other work.
}, 600_000);

afterAll(async () => {
  await t?.close();
  await storage?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe(`a generated ${COUNT.toLocaleString('en-US')}-person dataset`, () => {
  const sample = [...generatePeople({ count: COUNT, seed: 'acceptance', today: TODAY, activity: false })].filter((_, i) => i % 997 === 0);
  const td = async (query: string) => (await t.app.inject({ url: `/v5/td?${query}&api_key=${key}` })).json() as Record<string, unknown>;

  it('was sampled across the whole file', () => {
    expect(sample.length).toBeGreaterThan(100);
  });

  it('answers each person by email, SHA-1 and MD5 with the generated values', async () => {
    for (const { person } of sample) {
      const email = person.emails[person.emails.length - 1]!;
      const expected = { age: person.age, gender: person.gender, zip: person.zip.slice(0, 5) };
      for (const query of [
        `email=${encodeURIComponent(email)}`,
        `sha1_email=${createHash('sha1').update(email).digest('hex')}`,
        `md5_email=${createHash('md5').update(email).digest('hex').toUpperCase()}`,
      ]) {
        const record = await td(`${query}&fields=age,gender,zip,postal_address`);
        expect(record).toMatchObject(expected);
        expect(record.postal_address).toMatchObject({
          first_name: person.first_name,
          last_name: person.last_name,
          address: person.address,
          zip: person.zip,
        });
      }
    }
  });

  it('answers each person by name and postal address, in both client shapes', async () => {
    for (const { person } of sample) {
      const byStreet = await td(
        `first=${encodeURIComponent(person.first_name)}&last=${encodeURIComponent(person.last_name)}&street=${encodeURIComponent(person.address)}&city=${encodeURIComponent(person.city)}&state=${person.state}&fields=age,gender`,
      );
      expect(byStreet).toEqual({ age: person.age, gender: person.gender });
      const byZip4 = await td(
        `first=${encodeURIComponent(person.first_name)}&last=${encodeURIComponent(person.last_name)}&zip4=${person.zip}&fields=age`,
      );
      expect(byZip4).toEqual({ age: person.age });
    }
  });

  describe('activity metrics', () => {
    const emails = new Set(sample.flatMap(({ person }) => person.emails));
    const events = generatedEvents(generatePeople({ count: COUNT, seed: 'acceptance', today: TODAY }), emails);
    const expected = new Map([...emails].map((email) => [email, expectedEam(events.get(email) ?? [])]));

    it('sampled addresses of every kind: never seen, new, recent, old, dormant, with and without opens', () => {
      const all = [...expected.values()];
      expect(new Set(all.map((e) => e.longevity))).toEqual(new Set([0, 1, 2, 3]));
      expect(all.filter((e) => e.longevity === 3 && e.velocity === 0).length).toBeGreaterThan(0);
      expect(all.filter((e) => e.month_last_open !== undefined).length).toBeGreaterThan(20);
      expect(all.filter((e) => e.velocity >= 3).length).toBeGreaterThan(5);
      expect(all.filter((e) => e.popularity >= 2).length).toBeGreaterThan(5);
    });

    it('answers each sampled address with the metrics of its generated events', async () => {
      for (const email of emails) {
        const record = await td(`email=${encodeURIComponent(email)}&fields=eam`);
        expect({ email, ...(record.eam as object) }).toEqual({ email, ...expected.get(email) });
      }
    });

    it('answers the same metrics in one /v5/ei/bulk call', async () => {
      const list = [...emails];
      const res = await t.app.inject({
        method: 'POST',
        url: `/v5/ei/bulk?api_key=${key}&fields=eam`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(list.map((email) => ({ email }))),
      });
      expect(res.statusCode).toBe(200);
      expect((res.json() as { eam: unknown }[]).map((r) => r.eam)).toEqual(list.map((email) => expected.get(email)));
    });
  });
});

/** The generated events of the given addresses, whoever lists them, exact repeats once (as stored). */
function generatedEvents(people: Iterable<GeneratedPerson>, emails: ReadonlySet<string>): Map<string, ActivityImportRecord[]> {
  const out = new Map<string, Map<string, ActivityImportRecord>>();
  for (const { activity } of people) {
    for (const event of activity) {
      if (!emails.has(event.email)) continue;
      let mine = out.get(event.email);
      if (mine === undefined) out.set(event.email, (mine = new Map()));
      mine.set(`${event.source}|${event.seen_at.slice(0, 10)}|${event.event}`, event);
    }
  }
  return new Map([...out].map(([email, events]) => [email, [...events.values()]]));
}

/** docs/enrichment.md's `eam` formulas, applied to generated events. */
function expectedEam(events: readonly ActivityImportRecord[]): EamObject {
  if (events.length === 0) return { date_first_seen: 'now', longevity: 0, velocity: 0, popularity: 0 };
  const days = events.map((e) => e.seen_at.slice(0, 10)).sort();
  const first = days[0]!;
  const recent = days.filter((d) => d >= SINCE_6M).length;
  const sources = new Set(events.filter((e) => e.seen_at.slice(0, 10) >= SINCE_12M).map((e) => e.source)).size;
  const opens = events
    .filter((e) => e.event === 'open' && e.seen_at.slice(0, 10) >= SINCE_12M)
    .map((e) => e.seen_at.slice(0, 10))
    .sort();
  const eam: EamObject = {
    date_first_seen: first,
    longevity: first >= SINCE_1M ? 1 : first >= SINCE_12M ? 2 : 3,
    velocity: recent === 0 ? 0 : Math.max(1, Math.min(10, Math.round(10 * (1 - Math.exp(-recent / 8))))),
    popularity: Math.min(10, sources),
  };
  if (opens.length > 0) eam.month_last_open = opens.at(-1)!.slice(0, 7);
  return eam;
}
