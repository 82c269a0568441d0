/**
 * The accuracy report over a generated outcome stream (issue 32): 10,000 events of known truth
 * (src/generate/outcome-stream.ts), posted as SendGrid webhook batches through ingestion on a real
 * SQLite file, must come back from the report and from `mailsure outcomes report` with exactly the
 * stream's counts per verdict class and outcome kind: the events about addresses never verified
 * in none of them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/accounts/key-admin.js';
import { createLogger } from '../../src/core/logger.js';
import { outcomeStream, sendgridBatches, type OutcomeCounts } from '../../src/generate/outcome-stream.js';
import { accuracyReport, OUTCOME_KINDS, type KindCounts, type VerdictClass } from '../../src/outcomes/accuracy.js';
import { generateOutcomeToken, hashOutcomeToken } from '../../src/outcomes/ingest-token.js';
import { verdictIdOf } from '../../src/outcomes/verdict-record.js';
import type { Storage } from '../../src/storage/interfaces.js';
import { openStorage } from '../../src/storage/open-storage.js';
import { createOutcomeIngestFor } from '../../src/wiring/outcomes.js';
import { CLI_TEST_TIMEOUT, runCli } from '../helpers/cli.js';

const START = new Date('2026-01-01T00:00:00Z');
const stream = outcomeStream({ seed: 'accuracy-report', start: START });
/** Each code the stream's verdicts use, and the class the report shows it in. */
const CLASS_OF: Record<number, VerdictClass> = { 50: '50', 45: '45', 20: '20', 5: '5', 400: 'invalid', 410: 'invalid' };

let dataDir: string;
let storage: Storage;
let keyId: number;

/** The stream's expected event counts, summed per class. */
function expectedByClass(counts: OutcomeCounts): Partial<Record<VerdictClass, KindCounts>> {
  const out: Partial<Record<VerdictClass, KindCounts>> = {};
  for (const [code, kinds] of Object.entries(counts)) {
    const cls = CLASS_OF[Number(code)];
    if (cls === undefined) throw new Error(`the stream gives code ${code}, which this test does not place`);
    const into = (out[cls] ??= { bounce: 0, deferral: 0, blocked: 0, complaint: 0, delivery: 0 });
    for (const kind of OUTCOME_KINDS) into[kind] += kinds[kind];
  }
  return out;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'mailsure-accuracy-'));
  storage = await openStorage({ dataDir });
  keyId = (await createKey(storage.keys, 'sender', {})).record.id;
  const token = generateOutcomeToken();
  await storage.outcomeKeys.setToken(keyId, hashOutcomeToken(token));
  const idOf = verdictIdOf(Buffer.alloc(32, 7));
  // The verdicts the stream says the key was given, in the week before its first event.
  await storage.verdictRecords.record(
    stream.verified.map((v) => ({ keyId, id: idOf(keyId, v.email), code: v.code, at: v.verifiedAt.toISOString() })),
  );
  // Ingestion stands a day after the stream's last event.
  const ingest = createOutcomeIngestFor({
    storage,
    clock: { now: () => START.getTime() + 31 * 86_400_000 },
    logger: createLogger('silent'),
    verdictIdOf: idOf,
  });
  for (const body of sendgridBatches(stream.events)) {
    const result = await ingest.ingest(token, 'sendgrid', {
      body,
      contentType: 'application/json',
      contentTypeHeader: 'application/json',
      headers: {},
    });
    if (!result.ok) throw new Error(result.refusal.message);
  }
}, CLI_TEST_TIMEOUT);
afterAll(async () => {
  await storage?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('accuracy over a generated stream of known truth', () => {
  it('counts every verified address’s outcomes under its verdict’s class, and none of the others', async () => {
    const since = '2026-01-01';
    const report = accuracyReport(await storage.outcomes.accuracy(keyId, since), since);
    const expected = expectedByClass(stream.expected.events);
    for (const cls of ['50', '45', '20', '5', 'invalid'] as const)
      expect({ cls, counts: report.classes[cls] }).toEqual({ cls, counts: expected[cls] });
    expect(report.classes.other).toEqual({ bounce: 0, deferral: 0, blocked: 0, complaint: 0, delivery: 0 });
    expect(report.total).toBe(stream.events.length - stream.expected.unverified);
    expect(report.bySource.sendgrid).toEqual(report.classes);
    // The stream is not degenerate: wrong verdicts exist to be found.
    expect(report.classes['50'].bounce).toBeGreaterThan(0);
    expect(report.classes.invalid.delivery).toBeGreaterThan(0);
  });

  it(
    '`mailsure outcomes report` prints the same table',
    () => {
      const days = Math.ceil((Date.now() - START.getTime()) / 86_400_000) + 2;
      const out = runCli(['outcomes', 'report', '--key', 'sender', '--days', String(days)], { MAILSURE_DATA_DIR: dataDir });
      expect(out.stderr).toBe('');
      expect(out.status).toBe(0);
      const expected = expectedByClass(stream.expected.events);
      const total = stream.events.length - stream.expected.unverified;
      expect(out.stdout).toContain(`for "sender": ${total}\n`);
      const rows = new Map(
        out.stdout
          .split('\n')
          .map((line) => line.trim().split(/\s+/))
          .filter((cells) => cells.length === 6)
          .map(([cls, ...counts]) => [cls!, counts.map(Number)]),
      );
      for (const cls of ['50', '45', '20', '5', 'invalid'] as const)
        expect({ cls, row: rows.get(cls) }).toEqual({ cls, row: OUTCOME_KINDS.map((kind) => expected[cls]![kind]) });
      expect(rows.get('other')).toEqual([0, 0, 0, 0, 0]);
    },
    CLI_TEST_TIMEOUT,
  );
});
