/**
 * Crash safety of the list pipeline (decisions §6: "a list survives a restart of any process"),
 * with the real server in a child process: SIGKILLed while a list runs (no shutdown hook, chunks
 * in flight lost, a results file half written) and restarted on the same data dir, the list must
 * resume from its committed chunks and end with exactly the results and reports of an
 * uninterrupted run of the same file on a fresh server: byte for byte, every record once and in
 * order, billed once. The crashed list is submitted with `evidence=true` (the uninterrupted one
 * without): its results are still those bytes, and its evidence survives like them (each chunk
 * committed with both, the evidence file written again after a kill while it was half written),
 * one line per record in order.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resultsPath } from '../../src/lists/list-files.js';
import { RULES } from '../../src/verification/rules.js';
import { openStorage } from '../../src/storage/open-storage.js';
import { startTestWorld, type TestWorld } from '../helpers/world/index.js';
import { writeListCsv, type ListFile } from './list-csv.js';
import { createKeyByCli, ListClient, startMailsure, type ChildMailsure, type ListStatusBody, type ServerOptions } from './list-server.js';
import { until } from '../helpers/until.js';

/** Large enough that processing takes seconds even on a fast machine, so the kill windows exist. */
const RECORDS = 60_000;
const POLL_MS = 20;

let world: TestWorld;
let root: string;
let file: ListFile;
const running = new Set<ChildMailsure>();

beforeAll(async () => {
  world = await startTestWorld();
  root = mkdtempSync(join(tmpdir(), 'mailsure-list-crash-'));
  file = await writeListCsv(join(root, 'people.csv'), RECORDS);
});

afterAll(async () => {
  await Promise.all([...running].map((s) => s.kill()));
  await world?.close();
  rmSync(root, { recursive: true, force: true });
});

interface Running {
  server: ChildMailsure;
  client: ListClient;
}

async function start(options: ServerOptions, key: string): Promise<Running> {
  const server = await startMailsure(options);
  running.add(server);
  return { server, client: new ListClient(server.port, key) };
}

async function kill({ server, client }: Running): Promise<void> {
  client.close();
  await server.kill();
  running.delete(server);
}

const progressOf = (body: ListStatusBody) => body.services.email_validation?.completed_count ?? 0;

/** Polls fast until `until` holds or the list is finished; answers the status then. */
async function waitFor(client: ListClient, listId: number, until: (body: ListStatusBody) => boolean): Promise<ListStatusBody> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const body = await client.status(listId);
    if (until(body) || ['Results', 'Error', 'Invalid', 'Cancelled'].includes(body.status) || Date.now() > deadline) return body;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Polls the file system fast (the results file is written in about a second). */
interface Reporting {
  statuses: Record<string, number>;
  invalid_categories: Record<string, number>;
  domain_type: Record<string, number>;
  role_accounts: number;
}

/** Where two results files first differ, as a short message (a diff of megabytes helps nobody). */
function firstDifference(a: Buffer, b: Buffer): string {
  if (a.equals(b)) return 'none';
  const left = a.toString('utf8').split('\n');
  const right = b.toString('utf8').split('\n');
  const line = left.findIndex((text, i) => text !== right[i]);
  return line === -1
    ? `the second file has ${right.length - left.length} more lines`
    : `line ${line + 1}: ${JSON.stringify(left[line])} vs ${JSON.stringify(right[line])}`;
}

it('resumes a list after SIGKILL and ends with the results of an uninterrupted run', { timeout: 120_000 }, async () => {
  const crashed: ServerOptions = { dataDir: join(root, 'crashed'), env: world.env };
  const clean: ServerOptions = { dataDir: join(root, 'clean'), env: world.env };
  const [crashedKey, cleanKey] = await Promise.all([
    createKeyByCli(crashed, 'crash', 'verification,lists', undefined, ['--evidence']),
    createKeyByCli(clean, 'clean', 'verification,lists'),
  ]);

  // Killed at ≥ 10 %, restarted; killed again at ≥ 10 % more, restarted; killed a third time
  // while the results file is being written (state Processing), restarted; a fourth while the
  // evidence file is (the results file written by then), restarted; left to finish.
  let crashing = await start(crashed, crashedKey);
  const listId = await crashing.client.submit(file.path, '?header=true&evidence=true');
  let seen = 0;
  for (const step of [0.1, 0.1]) {
    const before = await waitFor(crashing.client, listId, (body) => progressOf(body) >= seen + step * RECORDS);
    expect(before.status).toBe('Pending');
    expect(progressOf(before)).toBeLessThanOrEqual(0.9 * RECORDS);
    await kill(crashing);
    crashing = await start(crashed, crashedKey);
    // What was committed before the kill is still there: nothing starts over.
    const after = await crashing.client.status(listId);
    expect(progressOf(after)).toBeGreaterThanOrEqual(progressOf(before));
    seen = progressOf(after);
  }
  expect((await waitFor(crashing.client, listId, (body) => body.status === 'Processing')).status).toBe('Processing');
  const partial = `${resultsPath(crashed.dataDir, listId)}.partial`;
  await until(() => (statSync(partial, { throwIfNoEntry: false })?.size ?? 0) > 0);
  await kill(crashing);
  expect(existsSync(resultsPath(crashed.dataDir, listId))).toBe(false);
  crashing = await start(crashed, crashedKey);
  const evidencePartial = `${resultsPath(crashed.dataDir, listId, 'evidence')}.partial`;
  await until(() => (statSync(evidencePartial, { throwIfNoEntry: false })?.size ?? 0) > 0, {
    what: 'the evidence file being written',
    withinMs: 60_000,
  });
  await kill(crashing);
  expect(existsSync(resultsPath(crashed.dataDir, listId, 'evidence'))).toBe(false);
  crashing = await start(crashed, crashedKey);
  const crashedStatus = await crashing.client.waitFinished(listId, { everyMs: 100, timeoutMs: 120_000 });
  const crashedResults = await crashing.client.results(listId);
  const crashedEvidence = await crashing.client.results(listId, 'evidence');
  await kill(crashing);
  expect(existsSync(partial)).toBe(false);
  expect(existsSync(evidencePartial)).toBe(false);

  const control = await start(clean, cleanKey);
  const controlId = await control.client.submit(file.path);
  const controlStatus = await control.client.waitFinished(controlId, { everyMs: 100, timeoutMs: 120_000 });
  const controlResults = await control.client.results(controlId);
  await kill(control);

  expect(crashedStatus.status).toBe('Results');
  expect(controlStatus.status).toBe('Results');
  expect(crashedStatus.records).toBe(RECORDS);
  expect(crashedStatus.services).toEqual(controlStatus.services);
  expect(crashedStatus.services.email_validation).toMatchObject({ input_count: RECORDS, completed_count: RECORDS, status: 'Completed' });

  // The file is varied enough for the comparison to mean something.
  const reporting = crashedStatus.services.email_validation!.reporting as Reporting;
  expect(reporting.statuses.Invalid).toBeGreaterThan(0);
  expect(reporting.statuses.Unknown).toBeGreaterThan(0);
  for (const category of ['Syntax Errors', 'Domain Errors'] as const) expect(reporting.invalid_categories[category]).toBeGreaterThan(0);
  for (const type of ['Disposable', 'Free ISP', 'Parked', 'Business'] as const) expect(reporting.domain_type[type]).toBeGreaterThan(0);
  expect(reporting.role_accounts).toBeGreaterThan(0);

  // Both lists are list 1 of their data dir, so even the names inside the zips agree.
  expect(crashedResults.name).toBe(controlResults.name);
  expect(firstDifference(crashedResults.content, controlResults.content)).toBe('none');

  // Every input record once, in order, its cells exactly as uploaded (even a cell a spreadsheet
  // would run as a formula, such as `@gmail.com`: the customer's own data), each with its appended columns.
  const input = parse(readFileSync(file.path), { relax_column_count: true }) as string[][];
  const output = parse(crashedResults.content, { relax_column_count: true }) as string[][];
  expect(output).toHaveLength(input.length);
  expect(output[0]!.slice(0, 4)).toEqual(input[0]);
  expect(output.map((row) => row.slice(0, 4))).toEqual(input);
  expect(output.every((row) => row.length === output[0]!.length)).toBe(true);
  const duplicate = output[0]!.indexOf('Duplicate');
  expect(output.filter((row) => row[duplicate] === 'true').length).toBeGreaterThan(0);

  // The evidence: one line per record, in order, each with the record's address (its cell,
  // trimmed) and the evidence of its verdict, naming a rule of the catalogue.
  expect(crashedEvidence.name).toBe(`people-${listId}-Evidence.jsonl`);
  const lines = crashedEvidence.content.toString('utf8').trimEnd().split('\n');
  expect(lines).toHaveLength(RECORDS);
  const unknownRules = new Set<string>();
  lines.forEach((text, i) => {
    const line = JSON.parse(text) as { row: number; email: string; evidence: { rule: string } | null };
    if (line.row !== i + 1 || line.email !== input[i + 1]![0]!.trim() || !line.evidence || !(line.evidence.rule in RULES))
      unknownRules.add(`line ${i + 1}: ${text.slice(0, 200)}`);
  });
  expect([...unknownRules].slice(0, 3)).toEqual([]);

  // Billed once, every chunk committed once.
  const storage = await openStorage({ dataDir: crashed.dataDir });
  try {
    const key = (await storage.keys.list())[0]!;
    expect((await storage.usage.totals(key.id)).list_record).toBe(RECORDS);
    const chunks = await storage.lists.chunkCounts(listId);
    expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
    expect(chunks.reduce((n, c) => n + c.records, 0)).toBe(RECORDS);
    // No chunk was committed with its results and without their evidence.
    const evidence = await storage.lists.chunkEvidence(listId, 0, chunks.length);
    expect(evidence.filter((c) => c.evidence === null).map((c) => c.index)).toEqual([]);
    expect(evidence).toHaveLength(chunks.length);
  } finally {
    await storage.close();
  }
});
