/**
 * Acceptance of the enrichment issue: a generated 100k dataset imported through the real import
 * command into a real SQLite file, then /v5/td lookups by every identifier type return the
 * generated truth.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importPeople } from '../../src/cli/import/import-people.js';
import { generatePeople } from '../../src/generate/people.js';
import { writeDataset } from '../../src/generate/write-dataset.js';
import type { Storage } from '../../src/storage/interfaces.js';
import { openStorage } from '../../src/storage/open-storage.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

const COUNT = 100_000;
const TODAY = '2026-11-22';
const dir = mkdtempSync(join(tmpdir(), 'mailsure-100k-'));
let storage: Storage;
let t: TestApp;
let key: string;

const quiet = new Writable({ write: (_c, _e, done) => done() }) as unknown as NodeJS.WriteStream;

beforeAll(async () => {
  const file = join(dir, 'people.ndjson');
  const out = createWriteStream(file);
  await writeDataset({ count: COUNT, seed: 'acceptance', today: TODAY, people: out });
  out.end();
  await finished(out);
  storage = await openStorage({ dataDir: dir });
  const original = process.stdout.write;
  process.stdout.write = (() => true) as never;
  try {
    const result = await importPeople(storage, file, { stream: quiet });
    expect(result).toMatchObject({ loaded: COUNT, rejected: 0 });
  } finally {
    process.stdout.write = original;
  }
  t = await makeTestApp({ storage });
  key = (await t.key('acceptance', { services: 'enrichment,postal_append', rate: '1000000' })).key;
}, 180_000);

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
        expect(record.postal_address).toMatchObject({ first_name: person.first_name, last_name: person.last_name, address: person.address, zip: person.zip });
      }
    }
  });

  it('answers each person by name and postal address, in both client shapes', async () => {
    for (const { person } of sample) {
      const byStreet = await td(
        `first=${encodeURIComponent(person.first_name)}&last=${encodeURIComponent(person.last_name)}&street=${encodeURIComponent(person.address)}&city=${encodeURIComponent(person.city)}&state=${person.state}&fields=age,gender`,
      );
      expect(byStreet).toEqual({ age: person.age, gender: person.gender });
      const byZip4 = await td(`first=${encodeURIComponent(person.first_name)}&last=${encodeURIComponent(person.last_name)}&zip4=${person.zip}&fields=age`);
      expect(byZip4).toEqual({ age: person.age });
    }
  });
});
