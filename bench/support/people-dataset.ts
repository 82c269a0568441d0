/**
 * A generated people dataset imported into SQLite for the enrichment benchmarks: built fresh in
 * each run (the import rate is one of the figures), in a temporary data dir.
 */
import { createReadStream, createWriteStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { importPeople } from '../../src/cli/import/import-people.js';
import { writeDataset } from '../../src/generate/write-dataset.js';
import type { Storage } from '../../src/storage/interfaces.js';
import { openStorage } from '../../src/storage/open-storage.js';

export interface PeopleDataset {
  dataDir: string;
  count: number;
  /** Some addresses of the dataset, spread over the whole file. */
  emails: string[];
  importRowsPerSecond: number;
  parseRowsPerSecond: number;
}

export const BENCH_PEOPLE = Number(process.env.MAILSURE_BENCH_PEOPLE ?? 1_000_000);
let built: Promise<PeopleDataset> | undefined;

export function peopleDataset(): Promise<PeopleDataset> {
  return (built ??= build(BENCH_PEOPLE));
}

async function build(count: number): Promise<PeopleDataset> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mailsure-bench-people-'));
  const file = join(dataDir, 'people.ndjson');
  const out = createWriteStream(file);
  await writeDataset({ count, seed: 'bench', today: '2026-11-22', people: out });
  out.end();
  await finished(out);

  // Baseline: reading and JSON-parsing the same file, the least any import must do.
  let started = performance.now();
  const emails: string[] = [];
  let line = 0;
  for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    const record = JSON.parse(text) as { emails: string[] };
    if (line++ % Math.max(1, Math.floor(count / 5_000)) === 0) emails.push(record.emails[0]!);
  }
  const parseRowsPerSecond = count / ((performance.now() - started) / 1000);

  const storage: Storage = await openStorage({ dataDir });
  const quiet = new Writable({ write: (_c, _e, done) => done() }) as unknown as NodeJS.WriteStream;
  const write = process.stdout.write;
  process.stdout.write = (() => true) as never;
  started = performance.now();
  try {
    await importPeople(storage, file, { stream: quiet });
  } finally {
    process.stdout.write = write;
  }
  const importRowsPerSecond = count / ((performance.now() - started) / 1000);
  await storage.close();
  return { dataDir, count, emails, importRowsPerSecond, parseRowsPerSecond };
}
