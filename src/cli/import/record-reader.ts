/**
 * Streams the records of an import file, NDJSON or CSV with a header (decisions §2), without
 * holding the file in memory. A malformed row becomes a `{ line, problem }` item instead of
 * stopping the stream, so good rows still load.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';

export type ImportItem = { line: number; record: Record<string, unknown> } | { line: number; problem: string };

export type ImportFormat = 'ndjson' | 'csv';

/** `.ndjson`/`.jsonl` and `.csv` by name; otherwise a first non-blank `{` means NDJSON. */
export async function detectFormat(file: string): Promise<ImportFormat> {
  if (/\.(nd)?jsonl?$/i.test(file) || /\.ndjson$/i.test(file)) return 'ndjson';
  if (/\.csv$/i.test(file)) return 'csv';
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(512), 0, 512, 0);
    return buffer.subarray(0, bytesRead).toString('utf8').trimStart().startsWith('{') ? 'ndjson' : 'csv';
  } finally {
    await handle.close();
  }
}

export async function* readImportFile(file: string, format: ImportFormat): AsyncGenerator<ImportItem> {
  if (format === 'ndjson') yield* readNdjson(file);
  else yield* readCsv(file);
}

async function* readNdjson(file: string): AsyncGenerator<ImportItem> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line += 1;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      yield { line, problem: 'not valid JSON' };
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) yield { line, problem: 'not a JSON object' };
    else yield { line, record: value as Record<string, unknown> };
  }
}

async function* readCsv(file: string): AsyncGenerator<ImportItem> {
  const skipped: ImportItem[] = [];
  const input = createReadStream(file);
  const parser = input.pipe(
    parse({
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      bom: true,
      info: true,
      trim: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (error) => {
        const line = Number((error as unknown as { lines?: number } | undefined)?.lines ?? 0);
        skipped.push({ line, problem: error?.message.replace(/^Invalid Record Length: /, '') ?? 'malformed CSV row' });
        return undefined;
      },
    }),
  );
  // pipe() does not pass a read error on (a missing file, a directory): without this it is an
  // unhandled 'error' event that kills the process instead of rejecting the loop below.
  input.once('error', (error) => parser.destroy(error));
  for await (const row of parser as AsyncIterable<{ info: { lines: number }; record: Record<string, string> }>) {
    while (skipped.length) yield skipped.shift()!;
    yield { line: row.info.lines, record: row.record };
  }
  while (skipped.length) yield skipped.shift()!;
}

/** The first CSV record as written (untrimmed cells); undefined for a file with none. */
export async function firstCsvRecord(file: string): Promise<string[] | undefined> {
  const input = createReadStream(file, { end: 1024 * 1024 - 1 });
  const parser = input.pipe(parse({ bom: true, to_line: 1, relax_column_count: true, relax_quotes: true, skip_empty_lines: true }));
  input.once('error', (error) => parser.destroy(error));
  try {
    for await (const row of parser as AsyncIterable<string[]>) return row;
  } catch {
    // Unreadable as CSV: the reading proper reports it, line by line.
  } finally {
    input.destroy();
    parser.destroy();
  }
  return undefined;
}

/** Every CSV record as its cells, none taken for a header: a file of values. */
export async function* readCsvRows(file: string): AsyncGenerator<{ line: number; cells: string[] } | { line: number; problem: string }> {
  const skipped: { line: number; problem: string }[] = [];
  const input = createReadStream(file);
  const parser = input.pipe(
    parse({
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (error) => {
        skipped.push({
          line: Number((error as unknown as { lines?: number } | undefined)?.lines ?? 0),
          problem: error?.message ?? 'malformed CSV row',
        });
        return undefined;
      },
    }),
  );
  input.once('error', (error) => parser.destroy(error));
  for await (const row of parser as AsyncIterable<{ info: { lines: number }; record: string[] }>) {
    while (skipped.length) yield skipped.shift()!;
    yield { line: row.info.lines, cells: row.record };
  }
  while (skipped.length) yield skipped.shift()!;
}
