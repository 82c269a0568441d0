/**
 * Stored blocking columns follow the live `personBlockingColumns`. A person's house number and
 * last-name code are derived when the person is stored; when the derivation learns a form (the
 * street parser reading rural-delivery boxes, say), rows stored before keep what the older code
 * said, and a query keyed by today's code misses them in that block. BLOCKING_VERSION
 * (blocking-version.ts) names what the live code computes; a store whose columns were derived by an older version re-derives every
 * row, rewrites those that differ, then records the version. Idempotent: two processes that open
 * the store at once both rewrite to the same values.
 */
import { personBlockingColumns } from './blocking.js';
import type { BlockingColumnsStore, BlockingRow } from './blocking-columns-store.js';
import { BLOCKING_VERSION } from './blocking-version.js';

export { BLOCKING_VERSION };
export type { BlockingColumnsStore, BlockingRow } from './blocking-columns-store.js';

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
export async function refreshBlockingColumns(store: BlockingColumnsStore, batch = BATCH): Promise<BlockingRefresh | undefined> {
  const from = await store.blockingVersion();
  if (from >= BLOCKING_VERSION) return undefined;
  let scanned = 0;
  let rewritten = 0;
  let after = 0;
  for (;;) {
    const rows = await store.blockingRows(after, batch);
    if (rows.length === 0) break;
    const changed: BlockingRow[] = [];
    for (const row of rows) {
      const now = personBlockingColumns(row);
      if (now.houseNumber !== row.houseNumber || now.lastPhonetic !== row.lastPhonetic) changed.push({ ...row, ...now });
    }
    if (changed.length > 0) await store.setBlockingColumns(changed);
    scanned += rows.length;
    rewritten += changed.length;
    after = rows[rows.length - 1]!.id;
  }
  await store.setBlockingVersion(BLOCKING_VERSION);
  return { from, to: BLOCKING_VERSION, scanned, rewritten };
}
