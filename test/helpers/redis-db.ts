/**
 * A Redis database of a test file's own on the server MAILSURE_TEST_REDIS_URL names, for tests
 * that need a whole database (a BullMQ queue, a child `mailsure` process that cannot be given a key
 * prefix) rather than keys under a prefix of their own.
 *
 * Numbers are never fixed in a test: each claim takes a free one (1 to the server's last; never
 * the database the base URL names, where tests keep keys under random prefixes) by a lease key in
 * database 0, so any two files — of one run, or of two checkouts on one server — can run at once.
 * The lease is renewed while held and expires on its own after a crashed run. The database is
 * emptied when claimed and when released.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

const LEASE = 'mailsure-test:redis-db-lease:';
const LEASE_MS = 5 * 60_000;

export interface OwnRedisDb {
  /** The base URL with this database's number. */
  url: string;
  db: number;
  /** Empties the database and gives it back. */
  release(): Promise<void>;
}

/** `baseUrl` pointed at database `db`. */
export function redisDbUrl(baseUrl: string, db: number): string {
  const url = new URL(baseUrl);
  url.pathname = `/${db}`;
  return url.href;
}

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0`;
const GIVE_BACK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;

async function databases(leases: Redis): Promise<number> {
  try {
    const answer = (await leases.config('GET', 'databases')) as string[];
    const n = Number(answer[1]);
    return Number.isInteger(n) && n > 1 ? n : 16;
  } catch {
    return 16; // CONFIG refused (a managed Redis): Redis's default.
  }
}

/**
 * Claims a free database; when every one is held (many files of many runs at once), waits for one
 * to be released, failing after `waitMs` with what it saw.
 */
export async function claimRedisDb(baseUrl: string, { waitMs = 50_000, pollMs = 200 } = {}): Promise<OwnRedisDb> {
  const leases = new Redis(redisDbUrl(baseUrl, 0), { lazyConnect: true });
  await leases.connect();
  const own = Number(new URL(baseUrl).pathname.slice(1) || 0);
  const count = await databases(leases);
  const token = `${process.pid}:${randomUUID()}`;
  const giveUp = Date.now() + waitMs;
  for (;;) {
    for (let db = 1; db < count; db++) {
      if (db === own) continue;
      if ((await leases.set(`${LEASE}${db}`, token, 'PX', LEASE_MS, 'NX')) !== 'OK') continue;
      const url = redisDbUrl(baseUrl, db);
      const emptied = new Redis(url);
      await emptied.flushdb();
      emptied.disconnect();
      const renewal = setInterval(() => void leases.eval(RENEW, 1, `${LEASE}${db}`, token, LEASE_MS).catch(() => undefined), LEASE_MS / 3);
      renewal.unref();
      return {
        url,
        db,
        async release() {
          clearInterval(renewal);
          const redis = new Redis(url);
          await redis.flushdb();
          redis.disconnect();
          await leases.eval(GIVE_BACK, 1, `${LEASE}${db}`, token);
          leases.disconnect();
        },
      };
    }
    if (Date.now() > giveUp) {
      leases.disconnect();
      const held = count - 1 - (own > 0 ? 1 : 0);
      throw new Error(`no free Redis database on ${new URL(baseUrl).host} after ${waitMs} ms: all ${held} held by other tests`);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
