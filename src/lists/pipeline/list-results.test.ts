import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newList } from '../../storage/contract/fixtures.js';
import { createKey } from '../../accounts/key-admin.js';
import type { EnrichService } from '../../enrichment/enrich-service.js';
import type { AppendService } from '../../identity/append/index.js';
import type { Storage } from '../../storage/interfaces.js';
import { openMemoryStorage } from '../../storage/open-storage.js';
import type { Verdict } from '../../verification/verdict.js';
import { openInput } from '../input/open-input.js';
import { listRecords } from '../input/prepare-list.js';
import type { ListRecord } from '../input/read-records.js';
import type { ListRow } from '../list-record.js';
import { collect } from '../test-support.js';
import { validationOutcome } from '../validation-outcome.js';
import { runChunk, type ChunkDeps } from './chunk-work.js';
import { createDomainScheduler } from './domain-scheduler.js';
import { parseList } from './list-parse.js';
import type { ListPlan } from './list-plan.js';
import { createDirectoryListFiles } from './directory-list-files.js';
import { listDir, resultsPath, uploadPath } from '../list-files.js';
import { writeListResults } from './list-results.js';

let storage: Storage;
let dataDir: string;
beforeEach(async () => {
  storage = openMemoryStorage();
  dataDir = await mkdtemp(join(tmpdir(), 'mailsure-results-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const verdictOf = (input: string): Verdict => {
  const n = input.length;
  const verdict: Verdict = { address: input, code: ([50, 20, 310, 525] as const)[n % 4]!, roleAccount: n % 5 === 0 };
  if (n % 3 === 0) verdict.domainType = 'biz';
  if (n % 7 === 0) verdict.corrections = [`"fix, ${input}"@x.com`];
  return verdict;
};

const deps: ChunkDeps = {
  verify: { verify: async (input) => verdictOf(input) },
  enrich: {} as EnrichService,
  append: {} as AppendService,
  scheduler: createDomainScheduler({ concurrency: 8, perDomain: 2 }),
  verifyTimeoutMs: 1_000,
};

async function listWith(content: string): Promise<{ list: ListRow; plan: ListPlan }> {
  const key = (await createKey(storage.keys, `k${Math.random()}`, { services: 'verification,lists' })).record;
  const list = await storage.lists.create(
    newList(key.id, {
      name: 'people.csv',
      fields: null,
      callbackUrl: null,
      sizeBytes: content.length,
      createdAt: new Date().toISOString(),
    }),
  );
  await mkdir(listDir(dataDir, list.id), { recursive: true });
  await writeFile(uploadPath(dataDir, list.id, 'csv'), content);
  const plan = await parseList(list, key, createDirectoryListFiles(dataDir));
  if (!plan.ok) throw new Error(plan.reason);
  return { list, plan: { ...plan.value, chunkSize: 7, chunkCount: Math.ceil(plan.value.layout.records / 7) } };
}

/** Commits every chunk, those in `older` as the version before stored texts wrote them. */
async function commitAll(list: ListRow, plan: ListPlan, older: Set<number>): Promise<void> {
  const records = await collect(listRecords(uploadPath(dataDir, list.id, 'csv'), 'csv', plan.layout));
  for (let index = 0; index < plan.chunkCount; index++) {
    const chunk: ListRecord[] = records.slice(index * plan.chunkSize, (index + 1) * plan.chunkSize);
    const outcome = await runChunk(chunk, plan, list, deps);
    const results = older.has(index)
      ? chunk.map((r) => [validationOutcome(verdictOf(r.cells[plan.layout.emailColumn!]?.trim() ?? '')), [], []])
      : outcome.results;
    await storage.lists.commitChunk(list.id, { index, records: chunk.length, counts: outcome.counts, results: JSON.stringify(results) });
  }
}

async function resultsOf(list: ListRow): Promise<string> {
  const opened = await openInput(resultsPath(dataDir, list.id), 'zip');
  if (!opened.ok) throw new Error(opened.reason);
  const parts: Buffer[] = [];
  for await (const part of opened.value.stream) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

describe('writeListResults', () => {
  const lines = Array.from(
    { length: 40 },
    (_, i) => `${i % 9 === 0 ? ' A@B.com ' : `user${i}@d${i % 4}.example`},"Ann, ""${i}""",${i % 2 ? 'x' : ''}`,
  );
  const content = `Email,Name,Note\n${lines.join('\n')}\n`;

  it('writes the same file from chunks stored by this version and the one before', async () => {
    const written: string[] = [];
    for (const older of [new Set<number>(), new Set([0, 1, 2, 3, 4, 5]), new Set([2]), new Set([5])]) {
      const { list, plan } = await listWith(content);
      await commitAll(list, plan, older);
      await writeListResults(list, plan, storage.lists, createDirectoryListFiles(dataDir));
      written.push(await resultsOf(list));
    }
    expect(written[0]).toContain('Email,Name,Note,Validation Status,Validation Code,Domain Type,Role Account,Duplicate,Valid Email\n');
    expect(written[0]).toContain(' A@B.com ,"Ann, ""0""",,corrected,525,,,true,"""fix, A@B.com""@x.com"\n');
    expect(written[0]).toContain('user1@d1.example,"Ann, ""1""",x,valid,50,,,,user1@d1.example\n');
    for (const other of written.slice(1)) expect(other).toBe(written[0]);
  });

  it('refuses to write when a chunk is missing', async () => {
    const { list, plan } = await listWith(content);
    await commitAll(list, plan, new Set());
    await expect(
      writeListResults(list, { ...plan, chunkCount: plan.chunkCount + 1 }, storage.lists, createDirectoryListFiles(dataDir)),
    ).rejects.toThrow(/no committed results for chunk 6/);
  });
});
