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

/** Creates `name` afresh (dropping what an earlier run left) and answers its URL. */
export async function createTestDatabase(serverUrl: string, name: string): Promise<string> {
  await admin(serverUrl, async (client) => {
    await client.query(`drop database if exists ${name} with (force)`);
    await client.query(`create database ${name}`);
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.href;
}

export function dropTestDatabase(serverUrl: string, name: string): Promise<void> {
  return admin(serverUrl, async (client) => void (await client.query(`drop database if exists ${name} with (force)`)));
}
