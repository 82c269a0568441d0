/**
 * Callback delivery retries (decisions §6: exponential back-off, at least 5 tries over an hour):
 * the first try at once, then after 1, 2, 4, 8, 16 and 32 minutes — 7 tries over 63 minutes.
 * Any answer other than 2xx, or none within the timeout, is a failed try. The schedule lives in
 * the recorded attempts, not in timers, so a restarted process resumes it (`nextCallbackTry`).
 */
export const FIRST_RETRY_MS = 60_000;
export const MAX_ATTEMPTS = 7;
export const CALLBACK_TIMEOUT_MS = 10_000;

/**
 * The wait before the next try after `attempt` tries have failed (1 after the first), or
 * undefined when none is left.
 */
export function nextAttemptDelayMs(attempt: number): number | undefined {
  if (!Number.isInteger(attempt) || attempt < 1 || attempt >= MAX_ATTEMPTS) return undefined;
  return FIRST_RETRY_MS * 2 ** (attempt - 1);
}

export const isDelivered = (statusCode: number) => statusCode >= 200 && statusCode < 300;

/** A recorded try: one without an error was a delivery (what ListStore.pendingCallbacks counts too). */
export interface RecordedTry {
  /** ISO 8601, when the try ended. */
  at: string;
  error: string | null;
}

/**
 * The next try after `attempts` (oldest first): none once one was delivered or the last was made;
 * the first at once (`dueAt` 0); any later one the back-off after the previous try ended, scaled
 * by `scale` (tests). Overdue tries are due at once: the caller waits `max(0, dueAt - now)`.
 */
export function nextCallbackTry(attempts: readonly RecordedTry[], scale = 1): { number: number; dueAt: number } | undefined {
  if (attempts.some((a) => a.error === null)) return undefined;
  const last = attempts.at(-1);
  if (last === undefined) return { number: 1, dueAt: 0 };
  const delay = nextAttemptDelayMs(attempts.length);
  if (delay === undefined) return undefined;
  return { number: attempts.length + 1, dueAt: Date.parse(last.at) + delay * scale };
}
