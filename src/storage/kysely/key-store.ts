import type { Kysely, Selectable } from 'kysely';
import type { ApiKeyRecord, KeySettings } from '../../accounts/key-config.js';
import type { ApiKeysTable, Database } from '../database.js';
import type { SecretBox } from '../secret-box.js';
import { DuplicateKeyName, type KeyStore, type NewApiKey } from '../../accounts/key-store.js';
import { checkCount } from '../validate.js';
import { newKeyRow, settingsToRow, toRecord } from './key-row.js';
import { violatesUnique } from './unique-violation.js';

const NAME_UNIQUE = { sqliteColumn: 'api_keys.name', pgConstraint: 'api_keys_name_unique' };

export class KyselyKeyStore implements KeyStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
    /** Seals webhook secrets at rest; without it they are stored as given (tests of rows). */
    private readonly box?: SecretBox,
  ) {}

  private readonly record = (row: Selectable<ApiKeysTable>): ApiKeyRecord => {
    const record = toRecord(row);
    if (this.box) record.webhookSecret = this.box.open(record.webhookSecret);
    return record;
  };

  async create(key: NewApiKey): Promise<ApiKeyRecord> {
    try {
      const row = await this.db
        .insertInto('api_keys')
        .values({
          ...newKeyRow(key),
          name: key.name,
          key_hash: key.keyHash,
          key_prefix: key.keyPrefix,
          webhook_secret: this.box ? this.box.seal(key.webhookSecret) : key.webhookSecret,
          created_at: this.now().toISOString(),
          demo: key.demo ? 1 : 0,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return this.record(row);
    } catch (error) {
      // The constraint, not a prior lookup, decides: two processes may create the same name at once.
      if (violatesUnique(error, NAME_UNIQUE)) throw new DuplicateKeyName(key.name);
      throw error;
    }
  }

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
    return row && this.record(row);
  }

  async findById(id: number): Promise<ApiKeyRecord | undefined> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    return row && this.record(row);
  }

  async findByName(name: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('name', '=', name).executeTakeFirst();
    return row && this.record(row);
  }

  async list(): Promise<ApiKeyRecord[]> {
    const rows = await this.db.selectFrom('api_keys').selectAll().orderBy('id').execute();
    return rows.map(this.record);
  }

  async update(name: string, changes: Partial<KeySettings>): Promise<ApiKeyRecord | undefined> {
    const set = settingsToRow(changes);
    if (Object.keys(set).length === 0) return this.findByName(name);
    const row = await this.db.updateTable('api_keys').set(set).where('name', '=', name).returningAll().executeTakeFirst();
    return row && this.record(row);
  }

  async revoke(name: string, at: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db
      .updateTable('api_keys')
      // Revoking again keeps the first time: that is when the key stopped working.
      .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)) }))
      .where('name', '=', name)
      .returningAll()
      .executeTakeFirst();
    return row && this.record(row);
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async addCalls(keyId: number, calls: number): Promise<number> {
    checkCount('calls', calls);
    // One statement: concurrent requests (and processes) never lose an increment.
    const row = await this.db
      .updateTable('api_keys')
      .set((eb) => ({ calls_used: eb('calls_used', '+', calls) }))
      .where('id', '=', keyId)
      .returning('calls_used')
      .executeTakeFirst();
    if (row === undefined) throw new Error(`no API key with id ${keyId}`);
    return row.calls_used;
  }
}
