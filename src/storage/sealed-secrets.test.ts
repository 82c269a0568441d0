/**
 * Webhook secrets at rest (issue 19, 15): what the database holds is sealed, so a dump alone does
 * not reveal them; the keys read back with the plain secret; secrets stored before sealing are
 * sealed at the next open; a wrong key stops start-up with the setting named. On a real SQLite
 * file and, when MAILSURE_TEST_DATABASE_URL is set, on PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createKey } from '../accounts/key-admin.js';
import { openStorage, type StorageOptions } from './open-storage.js';
import { openPostgres } from './postgres/open-postgres.js';
import { openSqlite } from './sqlite/open-sqlite.js';

const url = process.env.MAILSURE_TEST_DATABASE_URL;
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Engine {
  options(): Promise<StorageOptions>;
  /** Raw `webhook_secret` column values, and a way to write one as an older version did. */
  raw(options: StorageOptions): { secrets(): Promise<string[]>; setAll(value: string): Promise<void>; close(): Promise<void> };
}

const sqlite: Engine = {
  async options() {
    const dataDir = await mkdtemp(join(tmpdir(), 'mailsure-sealed-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    return { dataDir };
  },
  raw: (o) => {
    const db = openSqlite({ file: join(o.dataDir, 'mailsure.sqlite') });
    return {
      secrets: async () => (await db.selectFrom('api_keys').select('webhook_secret').execute()).map((r) => r.webhook_secret),
      setAll: async (value) => void (await db.updateTable('api_keys').set({ webhook_secret: value }).execute()),
      close: () => db.destroy(),
    };
  },
};

const postgres: Engine = {
  async options() {
    const schema = `mailsure_sealed_${randomBytes(5).toString('hex')}`;
    cleanups.push(async () => {
      const admin = openPostgres({ url: url! });
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin);
      await admin.destroy();
    });
    return { databaseUrl: url!, dataDir: '/nonexistent', schema, secretKey: randomBytes(32).toString('base64') };
  },
  raw: (o) => {
    const db = openPostgres({ url: url!, schema: o.schema! });
    return {
      secrets: async () => (await db.selectFrom('api_keys').select('webhook_secret').execute()).map((r) => r.webhook_secret),
      setAll: async (value) => void (await db.updateTable('api_keys').set({ webhook_secret: value }).execute()),
      close: () => db.destroy(),
    };
  },
};

const engines: [string, Engine, boolean][] = [
  ['sqlite', sqlite, true],
  ['postgresql', postgres, Boolean(url)],
];

for (const [name, engine, available] of engines) {
  describe.skipIf(!available)(`webhook secrets at rest on ${name}`, () => {
    it('are sealed in the database and read back plain', async () => {
      const options = await engine.options();
      const storage = await openStorage(options);
      const created = await createKey(storage.keys, 'acme', {});
      expect((await storage.keys.findByName('acme'))!.webhookSecret).toBe(created.webhookSecret);
      await storage.close();

      const raw = engine.raw(options);
      const [stored] = await raw.secrets();
      await raw.close();
      expect(stored).toMatch(/^v1:/);
      expect(stored).not.toContain(created.webhookSecret);

      const again = await openStorage(options);
      expect((await again.keys.findById(created.record.id))!.webhookSecret).toBe(created.webhookSecret);
      await again.close();
    });

    it('seals a secret an older version stored plain, at the next open', async () => {
      const options = await engine.options();
      const storage = await openStorage(options);
      await createKey(storage.keys, 'old', {});
      await storage.close();
      const raw = engine.raw(options);
      await raw.setAll('whsec_from_before');

      const reopened = await openStorage(options);
      expect((await reopened.keys.findByName('old'))!.webhookSecret).toBe('whsec_from_before');
      await reopened.close();
      const [stored] = await raw.secrets();
      await raw.close();
      expect(stored).toMatch(/^v1:/);
    });

    it('stops start-up, naming the setting, when the key does not open the stored secrets', async () => {
      const options = await engine.options();
      const storage = await openStorage(options);
      await createKey(storage.keys, 'acme', {});
      await storage.close();
      await expect(openStorage({ ...options, secretKey: randomBytes(32).toString('hex') })).rejects.toThrow(
        'the secret key does not open the webhook secrets in the database: set MAILSURE_SECRET_KEY (or restore secret.key in MAILSURE_DATA_DIR) to the key they were sealed with',
      );
    });
  });
}
