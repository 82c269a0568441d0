/** `mailsure import people FILE`: load people (identity, enrichment fields, emails) in batches. */
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { peopleBatch } from '../../identity/match/people-batch.js';
import { personFrom } from '../../people/person-record.js';
import type { NewPerson } from '../../people/person.js';
import type { Storage } from '../../wiring/stores.js';
import { print } from '../output.js';
import { printFailure, printRejections, runImport, warningCount, type ImportOutcome } from './progress.js';
import { detectFormat, type ImportFormat } from './record-reader.js';

const HEADER_BYTES = 1024 * 1024;

export interface PeopleImportResult extends Omit<ImportOutcome, 'rejectedLines' | 'warningLines'> {
  inserted: number;
  updated: number;
}

export async function importPeople(
  storage: Storage,
  file: string,
  opts: { stream?: NodeJS.WriteStream } = {},
): Promise<PeopleImportResult> {
  const format = await detectFormat(file);
  let inserted = 0;
  let updated = 0;
  const outcome = await runImport<NewPerson>({
    label: 'people',
    file,
    format,
    rowProblems: await headerProblems(file, format),
    check: (record) => {
      const result = personFrom(record);
      return 'person' in result ? { value: result.person, warnings: result.warnings } : result;
    },
    commit: async (batch) => {
      const counts = await storage.people.upsert(peopleBatch(batch));
      inserted += counts.inserted;
      updated += counts.updated;
    },
    ...(opts.stream ? { stream: opts.stream } : {}),
  });
  print(
    `people from ${format.toUpperCase()}: ${outcome.committed} loaded (${inserted} new, ${updated} updated), ${outcome.rejected} rejected${warningCount(outcome)}`,
  );
  printRejections(outcome);
  if (outcome.status === 'failed') printFailure('people', outcome);
  const { rejectedLines: _lines, warningLines: _warnings, ...rest } = outcome;
  return { ...rest, inserted, updated };
}

/**
 * What a CSV header loses before any row is read: the reader keys rows by column name, so a
 * repeated name keeps only its last cell and `__proto__` is dropped. Either would lose data
 * without a word; the rows are rejected instead. Other unknown names reach the row checks.
 */
export async function headerProblems(file: string, format: ImportFormat): Promise<string[]> {
  if (format !== 'csv') return [];
  const names = await csvHeader(file);
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    if (name === '__proto__') problems.push('__proto__: unknown field');
    else if (seen.has(name)) problems.push(`${name}: column appears more than once in the header`);
    seen.add(name);
  }
  return [...new Set(problems)];
}

/** The first CSV record, with the reader's trimming and lower-casing; empty for an empty or unreadable file. */
async function csvHeader(file: string): Promise<string[]> {
  const parser = parse({ bom: true, to_line: 1, relax_column_count: true, skip_empty_lines: true });
  // A header is short; reading stops at the first megabyte whatever the file holds.
  const source = createReadStream(file, { end: HEADER_BYTES - 1 });
  source.on('error', (error) => parser.destroy(error));
  source.pipe(parser);
  try {
    for await (const row of parser as AsyncIterable<string[]>) return row.map((name) => name.trim().toLowerCase());
  } catch {
    // A header the reader can't parse makes every row a reported problem already.
  } finally {
    source.destroy();
    parser.destroy();
  }
  return [];
}
