/** A PostgreSQL database of a test's own on the server MAILSURE_TEST_DATABASE_URL names. */
import pg from 'pg';

async function admin<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The database name a test's `name` gets on `serverUrl`: runs pointed at another base database
 * than `test` (parallel checkouts on one server) get names of their own, so that they never drop
 * each other's databases.
 */
function ownName(serverUrl: string, name: string): string {
  const base = new URL(serverUrl).pathname.slice(1);
  return base === '' || base === 'test' ? name : `${name}_${base.replace(/[^a-z0-9_]/gi, '_')}`;
}

/** Creates `name` afresh (dropping what an earlier run left) and answers its URL. */
export async function createTestDatabase(serverUrl: string, testName: string): Promise<string> {
  const name = ownName(serverUrl, testName);
  await admin(serverUrl, async (client) => {
    await client.query(`drop database if exists ${name} with (force)`);
    await client.query(`create database ${name}`);
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.href;
}

export function dropTestDatabase(serverUrl: string, testName: string): Promise<void> {
  const name = ownName(serverUrl, testName);
  return admin(serverUrl, async (client) => void (await client.query(`drop database if exists ${name} with (force)`)));
}
