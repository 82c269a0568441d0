/** What re-deriving the stored blocking columns (refresh-blocking.ts) needs from the people store. */
import type { BlockingColumns } from '../../people/people-store.js';

/** A stored person as far as blocking goes: what the columns derive from, and what they hold. */
export interface BlockingRow extends BlockingColumns {
  id: number;
  firstName: string;
  lastName: string;
  address: string;
}

/** What re-deriving needs from the people store (storage/ implements it on every engine). */
export interface BlockingColumnsStore {
  /** The version the stored columns were derived with (refresh-blocking.ts BLOCKING_VERSION); 0 when none is recorded. */
  blockingVersion(): Promise<number>;
  /** At most `limit` people with an id above `afterId`, in id order. */
  blockingRows(afterId: number, limit: number): Promise<BlockingRow[]>;
  /**
   * Writes the columns of these people (by id), each only while the person still has the names
   * and address they were derived from: an import that changed them meanwhile wrote its own.
   */
  setBlockingColumns(rows: readonly BlockingRow[]): Promise<void>;
  setBlockingVersion(version: number): Promise<void>;
}
