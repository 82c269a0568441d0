/**
 * What outcome ingestion and verification need of the outcome lists (storage/ implements it on
 * every engine). Storage computes nothing: ingestion (ingest-outcomes.ts) decides each event's
 * writes, and verification (verification/policy/outcome-entries.ts) which stored entries count for a key.
 * Entries that came from outcomes live here, apart from the operator's imported policy lists,
 * which nothing here ever changes.
 */
import type { OutcomeEntry, OutcomeListKind } from '../verification/policy/outcome-entries.js';
import type { OutcomeKind, OutcomeSource } from './outcome-event.js';

export type { OutcomeEntry, OutcomeListKind } from '../verification/policy/outcome-entries.js';

/** One ingested event's writes, as ingestion decided them. */
export interface OutcomeWrite {
  /** The ESP's event id: an event whose id the key has seen is not applied again. */
  eventId: string;
  change?:
    | { op: 'add'; kind: OutcomeListKind; value: string; shared: boolean; eventAt: string; expiresAt: string }
    /** Removes the key's outcome entries for the address made by events up to `eventAt` (a later bounce stays). */
    | { op: 'remove'; value: string; eventAt: string };
  /** One more event of this kind for the domain on this day (`YYYY-MM-DD`): the sender's own deliverability signal. */
  domainCount?: { domain: string; day: string; kind: OutcomeKind };
  /** One more outcome of this kind for a verdict of this code given earlier (accuracy). */
  accuracy?: { day: string; code: number; kind: OutcomeKind; source: OutcomeSource };
}

export interface OutcomeApplied {
  /** Events applied now. */
  applied: number;
  /** Events whose id the key had seen already: nothing changed for them. */
  repeated: number;
}

/** A day's count of one kind of count-only event at one domain. */
export interface DomainOutcomeCount {
  domain: string;
  day: string;
  kind: OutcomeKind;
  count: number;
}

/** A day's count of outcomes of one kind after verdicts of one code, by the ESP that told it. */
export interface AccuracyCount {
  day: string;
  code: number;
  kind: OutcomeKind;
  source: OutcomeSource;
  count: number;
}

export interface OutcomeStore {
  /**
   * In one transaction: marks each write's event id seen for the key and applies the writes of
   * events it had not seen, in order. Two deliveries of one event at once apply it once.
   */
  apply(keyId: number, writes: OutcomeWrite[], seenAt: string): Promise<OutcomeApplied>;
  /** Whether any outcome entry exists at all (verification skips the lookup when none does). */
  hasEntries(): Promise<boolean>;
  /** Every key's entries for this address that have not expired at `now` (ISO 8601). */
  match(address: string, now: string): Promise<OutcomeEntry[]>;
  /** Removes the key's outcome entries for the address (the operator's `mailsure outcomes remove`); how many. */
  remove(keyId: number, value: string): Promise<number>;
  /** Unexpired entries of the key by list. */
  countEntries(keyId: number, now: string): Promise<Record<OutcomeListKind, number>>;
  /** The key's count-only events per domain and day from `sinceDay` on. */
  domainCounts(keyId: number, sinceDay: string): Promise<DomainOutcomeCount[]>;
  /** Accuracy counts from `sinceDay` on: of one key, or of every key. */
  accuracy(keyId: number | undefined, sinceDay: string): Promise<AccuracyCount[]>;
  /**
   * Forgets what outlived its time: entries expired before `now`, event ids seen before
   * `seenBefore`, counts of days before `dayBefore`.
   */
  prune(cut: { now: string; seenBefore: string; dayBefore: string }): Promise<void>;
}
