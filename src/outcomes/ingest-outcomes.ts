/**
 * Outcome ingestion for one webhook delivery: the URL's token names the key (401 otherwise), the
 * source's parser checks the ESP's own signature with the key's secrets and reads the events
 * (its refusal is the answer, and nothing is stored), plan-writes.ts decides each event's writes,
 * and the store applies them once per event id. An SNS subscription confirmation is kept for the
 * operator to confirm (`mailsure outcomes subscriptions`), never followed here.
 */
import type { Clock } from '../core/clock.js';
import { hashOutcomeToken, looksLikeOutcomeToken } from './ingest-token.js';
import type {
  OutcomeDelivery,
  OutcomeEffect,
  OutcomeEvent,
  OutcomeParse,
  OutcomeRefusal,
  OutcomeSecrets,
  OutcomeSource,
} from './outcome-event.js';
import type { OutcomeKeyStore } from './outcome-key-store.js';
import type { OutcomeStore } from './outcome-store.js';
import { DEFAULT_ENTRY_DAYS, planWrites } from './plan-writes.js';
import type { VerdictIdOf } from './verdict-record.js';
import { DEFAULT_VERDICT_RECORD_DAYS } from './verdict-record.js';
import type { VerdictRecordStore } from './verdict-record-store.js';

/** parse-outcomes.ts's `parseOutcomes` (asynchronous for SNS and MIME reports), its ports bound. */
export type ParseOutcomes = (
  source: OutcomeSource,
  delivery: OutcomeDelivery,
  secrets: OutcomeSecrets,
  now: Date,
) => OutcomeParse | Promise<OutcomeParse>;

export interface IngestDeps {
  keys: OutcomeKeyStore;
  outcomes: OutcomeStore;
  verdictRecords: VerdictRecordStore;
  parse: ParseOutcomes;
  classify: (event: OutcomeEvent) => OutcomeEffect;
  verdictIdOf: VerdictIdOf;
  clock: Clock;
  /** Days an outcome entry counts (default DEFAULT_ENTRY_DAYS). */
  entryDays?: number;
  /** Days a verdict is kept for joining, and counts are kept for the report (default DEFAULT_VERDICT_RECORD_DAYS). */
  recordDays?: number;
  /** An SNS SubscriptionConfirmation for the key: kept for the operator. */
  onSubscription?: (keyId: number, subscribeUrl: string) => Promise<void>;
}

export type IngestResult =
  | { ok: true; keyId: number; applied: number; repeated: number; subscription: boolean; events: OutcomeEvent[] }
  | { ok: false; refusal: OutcomeRefusal };

export interface OutcomeIngest {
  ingest(token: string, source: OutcomeSource, delivery: OutcomeDelivery): Promise<IngestResult>;
}

/** ESPs retry a failed delivery for up to three days: event ids are remembered for a week. */
const SEEN_DAYS = 7;
const DAY_MS = 86_400_000;
/** Pruning runs at most this often, after an ingest. */
const PRUNE_EVERY_MS = 3_600_000;

export const BAD_TOKEN: OutcomeRefusal = { status: 401, message: 'Invalid outcome token' };

export function createOutcomeIngest(deps: IngestDeps): OutcomeIngest {
  const entryDays = deps.entryDays ?? DEFAULT_ENTRY_DAYS;
  const recordDays = deps.recordDays ?? DEFAULT_VERDICT_RECORD_DAYS;
  let prunedAt = -Infinity;
  const prune = async (now: number) => {
    if (now - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = now;
    const iso = (ms: number) => new Date(ms).toISOString();
    await deps.outcomes.prune({
      now: iso(now),
      seenBefore: iso(now - SEEN_DAYS * DAY_MS),
      dayBefore: iso(now - recordDays * DAY_MS).slice(0, 10),
    });
    await deps.verdictRecords.prune(iso(now - recordDays * DAY_MS));
  };
  return {
    async ingest(token, source, delivery) {
      if (!looksLikeOutcomeToken(token)) return { ok: false, refusal: BAD_TOKEN };
      const keyId = await deps.keys.keyOfToken(hashOutcomeToken(token));
      if (keyId === undefined) return { ok: false, refusal: BAD_TOKEN };
      const settings = await deps.keys.settings(keyId);
      const now = deps.clock.now();
      const parsed = await deps.parse(source, delivery, settings?.secrets ?? {}, new Date(now));
      if (!parsed.ok) return parsed;
      if (parsed.subscribeUrl !== undefined) await deps.onSubscription?.(keyId, parsed.subscribeUrl);
      const events = parsed.events;
      // One HMAC per address of the body, however many of its events name it.
      const idOfEmail = new Map<string, string>();
      const ids = events.map((e) => {
        let id = idOfEmail.get(e.email);
        if (id === undefined) idOfEmail.set(e.email, (id = deps.verdictIdOf(keyId, e.email)));
        return id;
      });
      const records = idOfEmail.size > 0 ? await deps.verdictRecords.find(keyId, [...new Set(idOfEmail.values())]) : [];
      const found = new Map(records.map((r) => [r.id, r]));
      const writes = planWrites(events, {
        now,
        share: settings?.share ?? false,
        entryDays,
        classify: deps.classify,
        verdictOf: (index) => found.get(ids[index]!),
      });
      const applied = writes.length ? await deps.outcomes.apply(keyId, writes, new Date(now).toISOString()) : { applied: 0, repeated: 0 };
      await prune(now);
      return { ok: true, keyId, ...applied, subscription: parsed.subscribeUrl !== undefined, events };
    },
  };
}
