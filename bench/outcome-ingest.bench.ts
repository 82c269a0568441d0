/**
 * Outcome ingestion (issue 32): SendGrid webhook batches of a generated outcome stream through the
 * whole ingestion service (token → key, parse and classify, the verdict-record join, each event's
 * writes applied once per event id in one transaction per body) on a SQLite file, against parsing
 * and classifying the same bodies alone (support/outcome-parsing.ts). Goal: ingestion keeps at
 * least half the parsing rate (the store costs no more than the parse).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKey } from '../src/accounts/key-admin.js';
import { createLogger } from '../src/core/logger.js';
import { outcomeStream, sendgridBatches } from '../src/generate/outcome-stream.js';
import { generateOutcomeToken, hashOutcomeToken } from '../src/outcomes/ingest-token.js';
import type { OutcomeDelivery } from '../src/outcomes/outcome-event.js';
import type { OutcomeStore, OutcomeWrite } from '../src/outcomes/outcome-store.js';
import { verdictIdOf } from '../src/outcomes/verdict-record.js';
import { openStorage } from '../src/storage/open-storage.js';
import { createOutcomeIngestFor } from '../src/wiring/outcomes.js';
import { parsingEventsPerSecond } from './support/outcome-parsing.js';
import type { BenchResult } from './types.js';

const ROUNDS = 3;
const START = new Date('2026-01-01T00:00:00Z');

/**
 * The stream's addresses are at `.example` domains, which no list may hold (a reserved top-level
 * domain): as generated, no event would write a list entry or a domain count. Under `.example.net`
 * (reserved for documentation too, but a valid address) every event writes what it would in use.
 */
const listable = (email: string) => email.replace(/\.example$/, '.example.net');

export default async function run(): Promise<BenchResult> {
  const generated = outcomeStream({ seed: 'bench', events: 10_000, start: START });
  const stream = {
    events: generated.events.map((e) => ({ ...e, email: listable(e.email) })),
    verified: generated.verified.map((v) => ({ ...v, email: listable(v.email) })),
  };
  const bodies = sendgridBatches(stream.events, 100);
  const deliveries: OutcomeDelivery[] = bodies.map((body) => ({
    body,
    contentType: 'application/json',
    contentTypeHeader: 'application/json',
    headers: {},
  }));
  const dataDir = mkdtempSync(join(tmpdir(), 'mailsure-bench-outcomes-'));
  const storage = await openStorage({ dataDir });
  try {
    const idOf = verdictIdOf(Buffer.alloc(32, 1));
    // The warm-up round keeps each body's planned writes: the floor below applies them alone.
    const planned: OutcomeWrite[][] = [];
    let recording = true;
    const outcomes: OutcomeStore = Object.create(storage.outcomes);
    outcomes.apply = (keyId, writes, seenAt) => {
      if (recording) planned.push(writes);
      return storage.outcomes.apply(keyId, writes, seenAt);
    };
    const ingest = createOutcomeIngestFor({
      storage: { outcomeKeys: storage.outcomeKeys, verdictRecords: storage.verdictRecords, outcomes },
      clock: { now: () => START.getTime() + 31 * 86_400_000 },
      logger: createLogger('silent'),
      verdictIdOf: idOf,
    });
    // Each round a fresh key (event ids are remembered per key, so every event is applied), whose
    // verdicts for the stream's verified addresses are on record, as the accuracy join finds them.
    const round = async (index: number): Promise<number> => {
      const keyId = (await createKey(storage.keys, `bench-${index}`, {})).record.id;
      const token = generateOutcomeToken();
      await storage.outcomeKeys.setToken(keyId, hashOutcomeToken(token));
      await storage.verdictRecords.record(
        stream.verified.map((v) => ({ keyId, id: idOf(keyId, v.email), code: v.code, at: v.verifiedAt.toISOString() })),
      );
      const start = performance.now();
      let applied = 0;
      for (const delivery of deliveries) {
        const result = await ingest.ingest(token, 'sendgrid', delivery);
        if (!result.ok) throw new Error(`bench body refused: ${result.refusal.message}`);
        applied += result.applied;
      }
      const rate = (stream.events.length * 1000) / (performance.now() - start);
      if (applied !== stream.events.length) throw new Error(`applied ${applied} of ${stream.events.length} events`);
      return rate;
    };
    // The store alone: the writes the issue asks of each event (its event-id row, so that an ESP's
    // retry changes nothing; its list change or domain count; its accuracy count), as planned in
    // the warm-up, one transaction per body through the store's own writer, and nothing else: no
    // parse, token, verdict join or planning. Ingestion does the parse and these writes, so its
    // ratio to the parse cannot pass floor / (parse + floor) however fast the rest becomes.
    const floorRound = async (index: number): Promise<number> => {
      const keyId = (await createKey(storage.keys, `floor-${index}`, {})).record.id;
      const seenAt = new Date(START.getTime() + 31 * 86_400_000).toISOString();
      const start = performance.now();
      for (const writes of planned) await storage.outcomes.apply(keyId, writes, seenAt);
      return (stream.events.length * 1000) / (performance.now() - start);
    };
    await round(0);
    recording = false;
    if (planned.length !== bodies.length) throw new Error(`planned ${planned.length} bodies of ${bodies.length}`);
    await floorRound(0);
    let ours = 0;
    let floor = 0;
    for (let i = 1; i <= ROUNDS; i++) {
      ours = Math.max(ours, await round(i));
      floor = Math.max(floor, await floorRound(i));
    }
    const baseline = await parsingEventsPerSecond('sendgrid', bodies);
    const ratio = ours / baseline;
    const floorRatio = floor / baseline;
    const load = loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
    return {
      title: 'Outcome ingestion (SendGrid batches of 100, SQLite)',
      ours: { label: 'ingest: parse, join, apply once per event id', value: Math.round(ours), unit: 'events/s' },
      baseline: { label: 'parseOutcomes + classifyOutcome alone', value: Math.round(baseline), unit: 'events/s' },
      ratio,
      goal: '≥ 0.5',
      met: ratio >= 0.5,
      notes:
        `10,000 events of a generated outcome stream (seed "bench", its addresses moved from \`.example\` to \`.example.net\` so that ` +
        `every event writes its list change or domain count: no list may hold a reserved top-level domain) in 100 bodies through ` +
        `createOutcomeIngestFor on a SQLite file (one transaction per body; verdicts on record for every verified address), best of ` +
        `${ROUNDS} rounds after a warm-up, each on a fresh key; the baseline parses the same bodies in the same process. ` +
        `Load average at the end: ${load}. The store alone, measured in the same run: each body's planned writes (every ` +
        `event's event-id row, so that an ESP's retry changes nothing; its list change or domain count; its accuracy count), one ` +
        `transaction per body through the store's own writer, with no parse, token, verdict join or planning: ` +
        `${Math.round(floor).toLocaleString('en-US')} events/s, ${floorRatio.toFixed(2)} of the parse. Ingestion does the parse ` +
        `and these writes, so its ratio cannot pass ${floorRatio.toFixed(2)} / (1 + ${floorRatio.toFixed(2)}) = ` +
        `${(floorRatio / (1 + floorRatio)).toFixed(2)} however fast everything else becomes: the goal of 0.5 needs the writes ` +
        `alone to be faster than the parse. Where ingestion's time goes (measured 2026-11-28 per stage, in multiples of the parse): ` +
        `the token and settings lookups 0.4, the HMAC ids (one per address of a body) 0.85, the verdict-record lookup (one statement ` +
        `per body) 0.75, planning 0.75 (most of it the list form of each address), the store's transaction 3 (one synchronous ` +
        `SQLite transaction per body over prepared statements: a seen-id row per event, an entry upsert or delete per list change, ` +
        `counts summed per body; about half of it the commit's WAL writes and checkpoints: the store's time halves on tmpfs, ` +
        `or with wal_autocheckpoint = 10000). Every stage but the parse costs about as much as the parse or more, so the goal is out of reach ` +
        `here without dropping a write or the verdict join.`,
    };
  } finally {
    await storage.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
