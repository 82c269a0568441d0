/**
 * Heavy batch work a slice at a time, letting other requests run between slices: a 5,000-record
 * bulk call on the synchronous SQLite driver otherwise holds the event loop for most of a second,
 * and every other caller waits that long for its answer.
 *
 * Slices of every bulk call in the process take turns, first come first served, one slice per
 * turn of the event loop: between two slices the loop reads sockets and answers whatever small
 * requests arrived, so eight concurrent bulk calls delay a single call by one slice, not by eight.
 */
export async function inSlices<T, R>(items: readonly T[], size: number, work: (slice: readonly T[]) => Promise<R[]>): Promise<R[]> {
  if (items.length <= size) return work(items);
  const out: R[] = [];
  for (let from = 0; from < items.length; from += size) {
    await nextTurn();
    for (const result of await work(items.slice(from, from + size))) out.push(result);
  }
  return out;
}

/** Records per slice of a bulk call: small enough that a slice holds the loop for about a millisecond. */
export const BULK_SLICE = 50;

/** Callers waiting for their next slice, in arrival order. */
const waiting: (() => void)[] = [];
let turning = false;

/** Resolves when it is this caller's turn. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!turning) {
      turning = true;
      setImmediate(giveTurn);
    }
  });
}

/** One caller's turn; the next one waits for the loop's next pass, after its I/O. */
function giveTurn(): void {
  const go = waiting.shift();
  if (waiting.length > 0) setImmediate(giveTurn);
  else turning = false;
  go?.();
}
