/**
 * At start, before anything is built on Redis (the BullMQ queue and worker, the shared rate
 * limiter and caches): Redis must answer a PING. While it does not, the process waits, saying so
 * in one log line, trying once a second with a fresh short-lived client; past `waitMs` it stops
 * with one line naming Redis and the setting (StartupError). BullMQ started against an
 * unreachable Redis could end up in a loop that starved the event loop and grew without bound
 * (issue 19, point 8); it is never started so.
 */
import { Redis } from 'ioredis';
import type { Logger } from '../../core/logger.js';
import { StartupError, reasonOf } from '../../core/startup-error.js';

/** `host:port/db` of a Redis URL, without its user or password. */
export function redisWhere(url: string): string {
  const parsed = new URL(url);
  const db = parsed.pathname.replace(/^\//, '');
  return `${parsed.hostname}:${parsed.port || '6379'}${db ? `/${db}` : ''}`;
}

/** One PING on a client of its own that never retries: the reason it failed, or undefined. */
export async function pingRedis(url: string, timeoutMs: number): Promise<string | undefined> {
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    enableReadyCheck: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  let lastError: unknown;
  probe.on('error', (error) => void (lastError = error));
  try {
    await probe.connect();
    await probe.ping();
    return undefined;
  } catch (error) {
    return reasonOf(lastError ?? error);
  } finally {
    probe.disconnect();
  }
}

export async function waitForRedis(
  url: string,
  logger: Logger,
  waitMs: number,
  options: { everyMs?: number; attemptMs?: number } = {},
): Promise<void> {
  const { everyMs = 1_000, attemptMs = 2_000 } = options;
  const where = redisWhere(url);
  const deadline = Date.now() + waitMs;
  let told = false;
  for (;;) {
    const failure = await pingRedis(url, attemptMs);
    if (failure === undefined) {
      if (told) logger.info({ redis: where }, 'redis answers; starting');
      return;
    }
    if (!told) {
      told = true;
      logger.warn(
        { redis: where, reason: failure, wait_seconds: Math.round(waitMs / 1000) },
        'redis does not answer; waiting for it before starting',
      );
    }
    if (Date.now() >= deadline) {
      throw new StartupError(
        `cannot reach Redis at ${where} (${failure}) after ${Math.round(waitMs / 1000)} s; start Redis, or fix MAILSURE_REDIS_URL (MAILSURE_REDIS_START_WAIT_SECONDS sets how long to wait)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
