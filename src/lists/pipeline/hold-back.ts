/**
 * Rows a provider throttled are held back and asked again later, so a list with many rows at one
 * provider goes at the pace the provider allows instead of ending them as "not checked". A
 * verdict limited `throttled` (the connection budget for the provider was spent past the
 * verdict's deadline, or the provider asked us to slow down) is not an answer about the address:
 * its row waits (first `firstWaitMs`, doubling up to `longestWaitMs`) and is verified again,
 * until it gets a real answer or `totalMs` has passed since the row was first asked; then the
 * throttled verdict stands (unknown, and the report and results file say why).
 *
 * While its rows wait, a chunk holds no verification slot (the caller is told, so it can start
 * other chunks meanwhile), and a stopped list (cancelled, shutting down) ends the wait at once.
 */
import { sleep } from './lease.js';

export interface HoldBackPolicy {
  /** The first wait before throttled rows are asked again (default 15 s). */
  firstWaitMs: number;
  /** The longest single wait (default 2 min: past the budget's one-minute window). */
  longestWaitMs: number;
  /** How long a row is held back at most, from its first verdict (default 2 h). */
  totalMs: number;
}

export const DEFAULT_HOLD_BACK: HoldBackPolicy = { firstWaitMs: 15_000, longestWaitMs: 120_000, totalMs: 2 * 3600_000 };

export interface HoldBackControl {
  /** Told true when the chunk starts waiting for its held rows, false when it asks them again. */
  holding(waiting: boolean): void;
  /** Whether the list stopped (cancelled, finished elsewhere, or this worker is shutting down). */
  stopped(): Promise<boolean>;
}

/** Thrown out of a wait when the list stopped: the chunk is not committed, nothing is lost. */
export class ListStopped extends Error {
  constructor() {
    super('the list stopped while rows were held back');
  }
}

/** How often a wait looks whether the list stopped. */
const STOP_CHECK_MS = 1_000;

/**
 * `ask(indexes)` answers the items at `indexes` in that order; the items whose answer is
 * `throttled` are asked again after a wait, as long as the policy allows. Answers in item order.
 */
export async function askWithHoldBack<T>(
  count: number,
  ask: (indexes: readonly number[]) => Promise<T[]>,
  throttled: (answer: T) => boolean,
  policy: HoldBackPolicy,
  control?: HoldBackControl,
): Promise<T[]> {
  const all = Array.from({ length: count }, (_, i) => i);
  const answers = await ask(all);
  const giveUpAt = Date.now() + policy.totalMs;
  let held = all.filter((i) => throttled(answers[i]!));
  let waitMs = policy.firstWaitMs;
  while (held.length > 0 && Date.now() + waitMs < giveUpAt) {
    control?.holding(true);
    try {
      await waitUnlessStopped(waitMs, control);
    } finally {
      control?.holding(false);
    }
    const again = await ask(held);
    held.forEach((index, k) => (answers[index] = again[k]!));
    held = held.filter((index) => throttled(answers[index]!));
    waitMs = Math.min(policy.longestWaitMs, waitMs * 2);
  }
  return answers;
}

async function waitUnlessStopped(ms: number, control: HoldBackControl | undefined): Promise<void> {
  const until = Date.now() + ms;
  for (let left = ms; ; left = until - Date.now()) {
    if (await control?.stopped()) throw new ListStopped();
    if (left <= 0) return;
    await sleep(Math.min(left, STOP_CHECK_MS));
  }
}
