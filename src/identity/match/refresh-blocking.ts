/**
 * Stored blocking columns follow the live `personBlockingColumns`. A person's house number and
 * last-name code are derived when the person is stored; when the derivation learns a form (the
 * street parser reading rural-delivery boxes, say), rows stored before keep what the older code
 * said, and a query keyed by today's code misses them in that block. BLOCKING_VERSION names what
 * the live code computes; a store whose columns were derived by an older version re-derives every
 * row, rewrites those that differ, then records the version. Idempotent: two processes that open
 * the store at once both rewrite to the same values.
 */
import { personBlockingColumns, type BlockingColumns } from './blocking.js';
import type { BlockingColumnsStore, BlockingRow } from './blocking-columns-store.js';

export type { BlockingColumnsStore, BlockingRow } from './blocking-columns-store.js';

/**
 * The version of `personBlockingColumns`. Add one whenever it computes anything differently (the
 * pinned digest in blocking-version.test.ts fails until then). 1: migration 0005's frozen copy;
 * 2: rural-delivery boxes, a box before its route, unit ids in any punctuation.
 */
export const BLOCKING_VERSION = 2;

export interface BlockingRefresh {
  from: number;
  to: number;
  /** People read. */
  scanned: number;
  /** People whose columns changed. */
  rewritten: number;
}

const BATCH = 2_000;

/** Re-derives the stored columns when they are older than the live code; undefined when they are current. */
export async function refreshBlockingColumns(
  store: BlockingColumnsStore,
  options: { version?: number; derive?: (p: BlockingRow) => BlockingColumns; batch?: number } = {},
): Promise<BlockingRefresh | undefined> {
  const { version = BLOCKING_VERSION, derive = personBlockingColumns, batch = BATCH } = options;
  const from = await store.blockingVersion();
  if (from >= version) return undefined;
  let scanned = 0;
  let rewritten = 0;
  let after = 0;
  for (;;) {
    const rows = await store.blockingRows(after, batch);
    if (rows.length === 0) break;
    const changed: BlockingRow[] = [];
    for (const row of rows) {
      const now = derive(row);
      if (now.houseNumber !== row.houseNumber || now.lastPhonetic !== row.lastPhonetic) changed.push({ ...row, ...now });
    }
    if (changed.length > 0) await store.setBlockingColumns(changed);
    scanned += rows.length;
    rewritten += changed.length;
    after = rows[rows.length - 1]!.id;
  }
  await store.setBlockingVersion(version);
  return { from, to: version, scanned, rewritten };
}
