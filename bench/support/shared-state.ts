/**
 * PostgreSQL databases and Redis database numbers of a bench's own, for the scale-out bench:
 * each one is created (or emptied) before use, and dropped (or emptied) by `close()`, which is
 * safe to call after a failure half-way.
 */
import pg from 'pg';
import { Redis } from 'ioredis';

export const testDatabaseUrl = process.env.MAILSURE_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const testRedisUrl = process.env.MAILSURE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const TIMEOUT_MS = 3_000;

/** A URL fit to print: no password. */
export function shown(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.href;
}

function message(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return message(error.errors[0]);
  return error instanceof Error ? error.message || error.constructor.name : String(error);
}

function redisClient(url: string): Redis {
  // One attempt, no queueing: an absent Redis must fail fast, not retry for ever.
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  redis.on('error', () => undefined);
  return redis;
}

async function withRedis<T>(url: string, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = redisClient(url);
  // connect() rejects with "Connection is closed." only: the cause comes as an 'error' event.
  let cause: unknown;
  redis.on('error', (error: unknown) => (cause ??= error));
  try {
    await redis.connect().catch((error: unknown) => {
      throw cause ?? error;
    });
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

async function withPg<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: TIMEOUT_MS });
  try {
    await client.connect();
    return await use(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Why PostgreSQL or Redis cannot be used, or undefined when both answer. */
export async function unreachable(databaseUrl: string, redisUrl: string): Promise<string | undefined> {
  const problems: string[] = [];
  await withPg(databaseUrl, (c) => c.query('select 1')).catch((e: unknown) =>
    problems.push(`PostgreSQL at ${shown(databaseUrl)}: ${message(e)}`),
  );
  await withRedis(redisUrl, (r) => r.ping()).catch((e: unknown) => problems.push(`Redis at ${shown(redisUrl)}: ${message(e)}`));
  return problems.length > 0 ? problems.join('; ') : undefined;
}

/** `url` with its database number replaced by `db`. */
export function redisUrlFor(url: string, db: number): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.href;
}

export class SharedState {
  private readonly databases = new Set<string>();
  private readonly redisDbs = new Set<string>();

  constructor(
    private readonly databaseUrl: string,
    private readonly redisUrl: string,
  ) {}

  /** A new, empty database `name` on the server of `databaseUrl`; answers its URL. */
  async database(name: string): Promise<string> {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
    this.databases.add(name);
    await withPg(this.databaseUrl, async (c) => {
      await c.query(`drop database if exists ${name} with (force)`);
      await c.query(`create database ${name}`);
    });
    const u = new URL(this.databaseUrl);
    u.pathname = `/${name}`;
    return u.href;
  }

  /** Redis database number `db`, emptied; answers its URL. */
  async redis(db: number): Promise<string> {
    const url = redisUrlFor(this.redisUrl, db);
    this.redisDbs.add(url);
    await withRedis(url, (r) => r.flushdb());
    return url;
  }

  /** Runs `use` with a client on a Redis database handed out by `redis()`. */
  withRedis<T>(url: string, use: (redis: Redis) => Promise<T>): Promise<T> {
    return withRedis(url, use);
  }

  /** Runs `use` with a client on a database handed out by `database()`. */
  withDatabase<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
    return withPg(url, use);
  }

  /** Drops every database and empties every Redis database handed out; reports what it could not. */
  async close(): Promise<void> {
    for (const name of this.databases) {
      await withPg(this.databaseUrl, (c) => c.query(`drop database if exists ${name} with (force)`)).catch((e: unknown) =>
        process.stderr.write(`  could not drop database ${name}: ${message(e)}\n`),
      );
    }
    for (const url of this.redisDbs) {
      await withRedis(url, (r) => r.flushdb()).catch((e: unknown) =>
        process.stderr.write(`  could not empty ${shown(url)}: ${message(e)}\n`),
      );
    }
    this.databases.clear();
    this.redisDbs.clear();
  }
}
