/**
 * The quota's reservation shared by every API process through Redis: one script checks the key's
 * count against its quota and counts the call, atomically, so n processes give a quota of 5 five
 * answers, not 5n. The count starts from the database's (the script takes the larger), and lives
 * a day after its last use: by then every process has written its calls to the database, which is
 * where a count Redis lost (a restart without persistence) starts again from.
 */
import type { Redis } from 'ioredis';
import type { SharedQuota } from '../../accounts/usage-store.js';

/** KEYS[1] the count; ARGV quota, calls, floor, ttl seconds. 1 when counted, 0 when it does not fit. */
const RESERVE = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local floor = tonumber(ARGV[3])
if floor > used then used = floor end
local calls = tonumber(ARGV[2])
if used + calls > tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], used, 'EX', ARGV[4])
  return 0
end
redis.call('SET', KEYS[1], used + calls, 'EX', ARGV[4])
return 1
`;

/** KEYS[1] the count; ARGV calls. Never below zero. */
const RELEASE = `
local left = redis.call('DECRBY', KEYS[1], ARGV[1])
if left < 0 then redis.call('SET', KEYS[1], 0, 'KEEPTTL') end
return 0
`;

const DAY_SECONDS = 86_400;

export function createRedisSharedQuota(redis: Redis, namespace = 'mailsure:quota'): SharedQuota {
  const keyOf = (keyId: number) => `${namespace}:k${keyId}`;
  return {
    async reserve(keyId, quota, calls, floor) {
      return (await redis.eval(RESERVE, 1, keyOf(keyId), quota, calls, floor, DAY_SECONDS)) === 1;
    },
    async release(keyId, calls) {
      await redis.eval(RELEASE, 1, keyOf(keyId), calls);
    },
  };
}
