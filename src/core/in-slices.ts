/**
 * Heavy batch work a slice at a time, letting other requests run between slices: a 5,000-record
 * bulk call on the synchronous SQLite driver otherwise holds the event loop for most of a second,
 * and every other caller waits that long for its answer.
 */
export async function inSlices<T, R>(items: readonly T[], size: number, work: (slice: readonly T[]) => Promise<R[]>): Promise<R[]> {
  if (items.length <= size) return work(items);
  const out: R[] = [];
  for (let from = 0; from < items.length; from += size) {
    if (from > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    for (const result of await work(items.slice(from, from + size))) out.push(result);
  }
  return out;
}

/** Records per slice of a bulk call: small enough that a slice holds the loop for milliseconds. */
export const BULK_SLICE = 100;
