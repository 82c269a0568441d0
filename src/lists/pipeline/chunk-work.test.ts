import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKey } from '../../accounts/key-admin.js';
import type { EnrichService } from '../../enrichment/enrich-service.js';
import type { AppendService } from '../../identity/append/index.js';
import { newList } from '../../storage/contract/fixtures.js';
import type { Storage } from '../../storage/interfaces.js';
import { openMemoryStorage } from '../../storage/open-storage.js';
import type { Verdict } from '../../verification/verdict.js';
import type { VerifyOptions } from '../../verification/verify-service.js';
import { listRecords } from '../input/prepare-list.js';
import { collect } from '../test-support.js';
import { runChunk, type ChunkDeps } from './chunk-work.js';
import { createDirectoryListFiles } from './directory-list-files.js';
import { createDomainScheduler } from './domain-scheduler.js';
import { parseList } from './list-parse.js';
import { listDir, uploadPath } from '../list-files.js';

let storage: Storage;
let dataDir: string;
beforeEach(async () => {
  storage = openMemoryStorage();
  dataDir = await mkdtemp(join(tmpdir(), 'mailsure-chunk-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

/** A chunk of `content` for a list with or without evidence, run with a verifier that tells the evidence what it decided. */
async function run(content: string, evidence: boolean, verify: (input: string, options: VerifyOptions) => Promise<Verdict>) {
  const key = (await createKey(storage.keys, `k${Math.random()}`, { services: 'verification,lists' })).record;
  const list = await storage.lists.create(newList(key.id, { name: 'people.csv', evidence, sizeBytes: content.length }));
  await mkdir(listDir(dataDir, list.id), { recursive: true });
  await writeFile(uploadPath(dataDir, list.id, 'csv'), content);
  const plan = await parseList(list, key, createDirectoryListFiles(dataDir));
  if (!plan.ok) throw new Error(plan.reason);
  const records = await collect(listRecords(uploadPath(dataDir, list.id, 'csv'), 'csv', plan.value.layout));
  const deps: ChunkDeps = {
    verify: { verify },
    enrich: {} as EnrichService,
    append: {} as AppendService,
    scheduler: createDomainScheduler({ concurrency: 8, perDomain: 2 }),
    verifyTimeoutMs: 1_000,
    holdBack: { firstWaitMs: 1, longestWaitMs: 1, totalMs: 60_000 },
  };
  return runChunk(records, plan.value, list, deps);
}

const accepted = async (input: string, options: VerifyOptions): Promise<Verdict> => {
  options.evidence?.stage({ stage: 'syntax', result: 'ok' });
  options.evidence?.decide('mailbox.accepted');
  return { address: input, code: 50, roleAccount: false };
};

describe('a chunk’s evidence', () => {
  it('is each record’s address, trimmed, and the evidence its verdict gathered, in order', async () => {
    const outcome = await run('Email,Name\n ann@example.com ,Ann\nbob@example.com,Bob\n', true, accepted);
    expect(outcome.evidence).toEqual([
      {
        email: 'ann@example.com',
        evidence: expect.objectContaining({ rule: 'mailbox.accepted', stages: [{ stage: 'syntax', result: 'ok' }] }),
      },
      { email: 'bob@example.com', evidence: expect.objectContaining({ rule: 'mailbox.accepted' }) },
    ]);
    expect(outcome.evidence![0]!.evidence).toMatchObject({ rule_doc: 'docs/verification.md#rule-mailbox-accepted', smtp: [] });
  });

  it('is not gathered for a list without evidence, and the results are the same', async () => {
    const asked: boolean[] = [];
    const watching = (input: string, options: VerifyOptions) => {
      asked.push(options.evidence !== undefined);
      return accepted(input, options);
    };
    const content = 'Email,Name\nann@example.com,Ann\n';
    const without = await run(content, false, watching);
    expect(without.evidence).toBeUndefined();
    expect(asked).toEqual([false]);
    const withEvidence = await run(content, true, watching);
    expect(asked).toEqual([false, true]);
    expect(withEvidence.results).toEqual(without.results);
    expect(withEvidence.counts).toEqual(without.counts);
  });

  it('of a row held back for a throttling provider is that of its last ask', async () => {
    let asks = 0;
    const throttledOnce = async (input: string, options: VerifyOptions): Promise<Verdict> => {
      asks += 1;
      if (asks === 1) {
        options.evidence?.decide('mailbox.throttled');
        return { address: input, code: 20, roleAccount: false, limit: 'throttled' };
      }
      return accepted(input, options);
    };
    const outcome = await run('Email\nann@example.com\n', true, throttledOnce);
    expect(asks).toBe(2);
    expect(outcome.evidence!.map((e) => e.evidence?.rule)).toEqual(['mailbox.accepted']);
  });
});
