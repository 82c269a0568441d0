import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe } from 'vitest';
import { runStorageContract } from './contract.js';
import { openMemoryStorage, openStorage } from './open-storage.js';
import { openPostgres } from './postgres/open-postgres.js';

runStorageContract('memory', async () => openMemoryStorage());

describe('sqlite', () => {
  const root = mkdtempSync(join(tmpdir(), 'mailsure-storage-'));
  let dataDir = '';
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  runStorageContract(
    'sqlite',
    // A directory that does not exist yet: opening must create it.
    () => openStorage({ dataDir: (dataDir = join(root, randomBytes(6).toString('hex'), 'data')) }),
    () => openStorage({ dataDir }),
  );
});

const url = process.env.MAILSURE_TEST_DATABASE_URL;
/** Given, so no key file is made: the data directory here does not exist. */
const TEST_SECRET_KEY = randomBytes(32).toString('base64');

describe.skipIf(!url)(url ? 'postgresql' : 'postgresql (skipped: MAILSURE_TEST_DATABASE_URL not set)', () => {
  const schemas: string[] = [];
  let schema = '';
  afterAll(async () => {
    const admin = openPostgres({ url: url! });
    try {
      for (const name of schemas) await sql`drop schema if exists ${sql.id(name)} cascade`.execute(admin);
    } finally {
      await admin.destroy();
    }
  });

  runStorageContract(
    'postgresql',
    () => {
      schema = `mailsure_test_${randomBytes(6).toString('hex')}`;
      schemas.push(schema);
      return openStorage({ databaseUrl: url, dataDir: '/nonexistent', schema, secretKey: TEST_SECRET_KEY });
    },
    () => openStorage({ databaseUrl: url, dataDir: '/nonexistent', schema, secretKey: TEST_SECRET_KEY }),
  );
});
