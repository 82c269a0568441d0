/**
 * Where the verdict memory (verdict-memory.ts) keeps what it remembers: an opaque id (an HMAC,
 * never an address) to a code and when it was learnt, with a TTL. In-process the bounded fact cache holds it; in
 * scale-out storage/redis/redis-verdict-store.ts, under an entry cap.
 */
import type { CODE } from './codes.js';
import type { FactCache } from './fact-cache.js';

/** The definitive mailbox verdicts: mailbox accepted (50), no such mailbox (400), mailbox full (410). */
export type RememberedCode = typeof CODE.deliverable | typeof CODE.noMailbox | typeof CODE.mailboxFull;

/** A remembered verdict: its code and when it was learnt (a verdict's evidence says so). */
export interface RememberedVerdict {
  code: RememberedCode;
  /** Ms since epoch; absent for an entry a version that did not keep it wrote. */
  at?: number;
}

export type VerdictStore = FactCache<RememberedVerdict>;
