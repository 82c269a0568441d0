/**
 * The verdict memory shared by every process through Redis (scale-out), behind the store interface
 * the in-process memory also implements (verification/verdict-store.ts). The list queue (BullMQ)
 * needs Redis at `maxmemory-policy noeviction`, so the memory must never fill Redis: it holds at
 * most `maxEntries` verdicts, and past that the ones that would expire soonest go first.
 *
 * Keys under the namespace: `v:<id>` (the code and when it was learnt, expiring with its class's TTL), `index` (a sorted
 * set of the ids by expiry time, which bounds them: expired ids are trimmed on every write) and
 * `generation` (which key the ids were made with: a process that starts with another server secret
 * empties the memory, since none of its entries could ever be found again). No address, no reply.
 *
 * Redis never decides a verdict: a Redis that errs or is slow to answer (past `timeoutMs`) is a
 * miss on read and a no-op on write, and the address is probed.
 */
import type { Redis } from 'ioredis';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { RememberedCode, RememberedVerdict, VerdictStore } from '../../verification/verdict-store.js';
import { withTimeout } from './with-timeout.js';

export interface RedisVerdictStoreOptions {
  /** Key prefix, e.g. `mailsure:verdicts`. */
  namespace: string;
  /** Most verdicts held (MAILSURE_VERDICT_MEMORY_MAX_ENTRIES). */
  maxEntries: number;
  /** Names the memory's key (verdictMemoryGeneration): another one empties the memory. */
  generation: string;
  clock: Clock;
  logger?: Logger;
  /** Longest wait for Redis before a read counts as a miss (default 250 ms). */
  timeoutMs?: number;
}

/**
 * KEYS: the entry, the index. ARGV: id, code, TTL (ms), now (ms), cap, entry key prefix.
 * Atomic, so the cap holds whatever the processes writing at once.
 */
const REMEMBER = `
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('ZADD', KEYS[2], tostring(tonumber(ARGV[4]) + tonumber(ARGV[3])), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[4])
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[5])
if over > 0 then
  local gone = redis.call('ZPOPMIN', KEYS[2], over)
  for i = 1, #gone, 2 do redis.call('DEL', ARGV[6] .. gone[i]) end
end
return 0`;

/** Ids dropped per round when a new secret empties the memory. */
const EMPTY_BATCH = 1_000;
const WARN_EVERY_MS = 60_000;

export function createRedisVerdictStore(redis: Redis, options: RedisVerdictStoreOptions): VerdictStore {
  const timeoutMs = options.timeoutMs ?? 250;
  const entryPrefix = `${options.namespace}:v:`;
  const index = `${options.namespace}:index`;
  const generationKey = `${options.namespace}:generation`;
  let lastWarning = -Infinity;
  const warn = (error: unknown, action: string) => {
    const now = options.clock.now();
    if (now - lastWarning < WARN_EVERY_MS) return;
    lastWarning = now;
    options.logger?.warn({ err: error }, `verdict memory: could not ${action} in Redis; probing instead`);
  };

  let checked: Promise<void> | undefined;
  /** Once per process: the memory made with another key is emptied before it is used. */
  const ready = () =>
    (checked ??= emptyIfAnotherKey().catch((error: unknown) => {
      checked = undefined;
      throw error;
    }));
  async function emptyIfAnotherKey(): Promise<void> {
    const current = await redis.get(generationKey);
    if (current === options.generation) return;
    if (current !== null) {
      for (;;) {
        const popped = await redis.zpopmin(index, EMPTY_BATCH);
        if (popped.length === 0) break;
        await redis.del(...popped.filter((_, i) => i % 2 === 0).map((id) => entryPrefix + id));
      }
      options.logger?.info('verdict memory: the server secret changed; the memory made with the previous one is emptied');
    }
    await redis.set(generationKey, options.generation);
  }

  return {
    async get(id) {
      try {
        await withTimeout(ready(), timeoutMs);
        const text = await withTimeout(redis.get(entryPrefix + id), timeoutMs);
        return text === null ? undefined : parseEntry(text);
      } catch (error) {
        warn(error, 'read');
        return undefined;
      }
    },
    async set(id, { code, at }, ttlMs) {
      if (ttlMs <= 0) return;
      try {
        await withTimeout(ready(), timeoutMs);
        const args = [
          id,
          at === undefined ? String(code) : `${code} ${at}`,
          String(Math.ceil(ttlMs)),
          String(options.clock.now()),
          String(options.maxEntries),
          entryPrefix,
        ];
        await withTimeout(redis.eval(REMEMBER, 2, entryPrefix + id, index, ...args), timeoutMs);
      } catch (error) {
        warn(error, 'write');
      }
    },
  };
}

/** `<code> <learnt at, ms>`, or a bare code as versions before the time was kept wrote it. */
function parseEntry(text: string): RememberedVerdict {
  const [code, at] = text.split(' ');
  return at === undefined ? { code: Number(code) as RememberedCode } : { code: Number(code) as RememberedCode, at: Number(at) };
}
