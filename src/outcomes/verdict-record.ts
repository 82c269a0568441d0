/**
 * The record of recent verdicts (verdict-record-store.ts), the join between a verdict we gave and
 * an outcome an ESP reports later: every verdict a key gets, of every class, kept by an HMAC of the
 * key and the address (never the address) under a key derived from the server secret for this use
 * alone. Writes are buffered and flushed together: one row per verdict on the hot path would cost
 * a database write per call.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { domainToASCII } from 'node:url';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Verdict } from '../verification/verdict.js';
import type { VerifyService } from '../verification/verify-service.js';
import type { VerdictRecord, VerdictRecordStore } from './verdict-record-store.js';

const KEY_INFO = 'mailsure verdict record v1';

/** How long a verdict is kept for joining: 90 days, longer than most senders wait before mailing a list they verified. */
export const DEFAULT_VERDICT_RECORD_DAYS = 90;

/** The record's own key (HKDF-SHA256 of the server secret), not the verdict memory's nor the sealing key. */
export function verdictRecordKey(serverSecret: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), KEY_INFO, 32));
}

/** The one form both sides join on: lower case, the domain in A-labels (an ESP may write either form). */
export function joinForm(address: string): string {
  const trimmed = address.trim().toLowerCase();
  const at = trimmed.lastIndexOf('@');
  if (at < 0) return trimmed;
  const domain = trimmed.slice(at + 1).replace(/\.$/, '');
  return `${trimmed.slice(0, at)}@${/^[\x20-\x7e]*$/.test(domain) ? domain : domainToASCII(domain) || domain}`;
}

export type VerdictIdOf = (keyId: number, address: string) => string;

/** 128 bits of HMAC-SHA256 over the key id and the address's join form. */
export function verdictIdOf(recordKey: Buffer): VerdictIdOf {
  return (keyId, address) =>
    createHmac('sha256', recordKey).update(`key:${keyId}\n`).update(joinForm(address)).digest().subarray(0, 16).toString('base64url');
}

export interface VerdictRecorder {
  /**
   * Whether the key's verdicts are recorded: only a key holding an ingestion token can ever have an
   * outcome to join, so the others cost the hot path nothing. The set is read again at each flush.
   */
  records(keyId: number): boolean;
  /** Notes a verdict given to a key (kept in memory until the next flush). */
  note(keyId: number, verdict: Pick<Verdict, 'address' | 'code'>): void;
  /**
   * Writes what was noted, then reads which keys are recorded; a failed write is logged and those
   * records are dropped (accuracy is a measure, not a ledger).
   */
  flush(): Promise<void>;
}

/** The service, noting each verdict given to a recorded key (an address, not a syntax failure without one). */
export function recordingVerdicts(service: VerifyService, recorder: VerdictRecorder): VerifyService {
  return {
    // No async wrapper: an extra await per call is measurable on the hot path.
    verify: (input, options) => {
      const key = options.key;
      if (!key || !recorder.records(key.id)) return service.verify(input, options);
      return service.verify(input, options).then((verdict) => {
        if (verdict.address.includes('@')) recorder.note(key.id, verdict);
        return verdict;
      });
    },
  };
}

/** Flushes once this many records wait, besides the caller's timer. */
const FLUSH_AT = 2_000;

interface Noted {
  keyId: number;
  address: string;
  code: number;
  at: number;
}

/**
 * A recorder over the store. `recordedKeys` names the keys holding a token (read at each flush;
 * until the first flush none is recorded); without it every key is.
 */
export function createVerdictRecorder(
  store: VerdictRecordStore,
  idOf: VerdictIdOf,
  clock: Clock,
  logger?: Logger,
  recordedKeys?: () => Promise<number[]>,
): VerdictRecorder {
  // Noting is a push; the HMAC and the timestamp's text are made at the flush, once per address.
  let pending: Noted[] = [];
  let recorded: ReadonlySet<number> | undefined = recordedKeys ? new Set() : undefined;
  let flushing: Promise<void> = Promise.resolve();
  const recorder: VerdictRecorder = {
    records: (keyId) => recorded === undefined || recorded.has(keyId),
    note(keyId, verdict) {
      pending.push({ keyId, address: verdict.address, code: verdict.code, at: clock.now() });
      if (pending.length >= FLUSH_AT) void recorder.flush();
    },
    flush() {
      const batch = pending;
      pending = [];
      // One write at a time, in order: a later verdict for the same address replaces the earlier.
      flushing = flushing.then(async () => {
        if (batch.length > 0) {
          const records = latestPerAddress(batch).map((n): VerdictRecord => ({
            keyId: n.keyId,
            id: idOf(n.keyId, n.address),
            code: n.code,
            at: new Date(n.at).toISOString(),
          }));
          await store
            .record(records)
            .catch((error: unknown) => logger?.error({ err: error, records: records.length }, 'could not record verdicts'));
        }
        if (recordedKeys) {
          await recordedKeys().then(
            (keys) => (recorded = new Set(keys)),
            (error: unknown) => logger?.error({ err: error }, 'could not read which keys hold an outcome token'),
          );
        }
      });
      return flushing;
    },
  };
  return recorder;
}

/** The last verdict each key was given for each address, in the order first noted. */
function latestPerAddress(batch: Noted[]): Noted[] {
  const latest = new Map<string, Noted>();
  for (const noted of batch) latest.set(`${noted.keyId}\n${noted.address}`, noted);
  return [...latest.values()];
}
