/**
 * The record of recent verdicts, for accuracy (storage/ implements it on every engine): every
 * verdict a key was given, of every class, by an opaque id (an HMAC of the key and the address,
 * verdict-record.ts), never the address. The verdict memory keeps only definitive mailbox
 * verdicts, and for probing; this keeps the last verdict per address and key, for joining outcomes.
 */

export interface VerdictRecord {
  keyId: number;
  /** HMAC id of the key and address (verdict-record.ts). */
  id: string;
  code: number;
  /** ISO 8601. */
  at: string;
}

export interface VerdictRecordStore {
  /** Keeps each record, replacing the key's earlier one for the same id. */
  record(records: VerdictRecord[]): Promise<void>;
  /** The key's records for these ids (those it has). */
  find(keyId: number, ids: string[]): Promise<VerdictRecord[]>;
  /** Forgets records made before `before` (ISO 8601); how many. */
  prune(before: string): Promise<number>;
}
