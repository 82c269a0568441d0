/**
 * Callback delivery retries (decisions §6: exponential back-off, at least 5 tries over an hour):
 * the first try at once, then after 1, 2, 4, 8, 16 and 32 minutes — 7 tries over 63 minutes.
 * Any answer other than 2xx, or none within the timeout, is a failed try.
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
