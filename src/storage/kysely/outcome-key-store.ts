import type { Kysely } from 'kysely';
import type { OutcomeSecrets } from '../../outcomes/outcome-event.js';
import type { OutcomeKeySettings, OutcomeKeyStore } from '../../outcomes/outcome-key-store.js';
import type { Database } from '../database.js';
import type { SecretBox } from '../secret-box.js';

export class KyselyOutcomeKeyStore implements OutcomeKeyStore {
  constructor(
    private readonly db: Kysely<Database>,
    /** Seals the ESP secrets at rest; without it they are stored as given (tests of rows). */
    private readonly box?: SecretBox,
  ) {}

  async setToken(keyId: number, tokenHash: string): Promise<void> {
    await this.db
      .insertInto('outcome_keys')
      .values({ key_id: keyId, token_hash: tokenHash })
      .onConflict((oc) => oc.column('key_id').doUpdateSet({ token_hash: tokenHash }))
      .execute();
  }

  async keyOfToken(tokenHash: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('outcome_keys').select('key_id').where('token_hash', '=', tokenHash).executeTakeFirst();
    return row?.key_id;
  }

  async keysWithToken(): Promise<number[]> {
    const rows = await this.db.selectFrom('outcome_keys').select('key_id').where('token_hash', 'is not', null).orderBy('key_id').execute();
    return rows.map((row) => row.key_id);
  }

  async setSecrets(keyId: number, secrets: OutcomeSecrets): Promise<void> {
    const json = JSON.stringify(secrets);
    const stored = Object.keys(secrets).length === 0 ? null : this.box ? this.box.seal(json) : json;
    await this.db
      .insertInto('outcome_keys')
      .values({ key_id: keyId, secrets: stored })
      .onConflict((oc) => oc.column('key_id').doUpdateSet({ secrets: stored }))
      .execute();
  }

  async setShare(keyId: number, share: boolean): Promise<void> {
    const flag = share ? 1 : 0;
    await this.db
      .insertInto('outcome_keys')
      .values({ key_id: keyId, share: flag })
      .onConflict((oc) => oc.column('key_id').doUpdateSet({ share: flag }))
      .execute();
  }

  async setSnsSubscription(keyId: number, subscribeUrl: string | null): Promise<void> {
    await this.db
      .insertInto('outcome_keys')
      .values({ key_id: keyId, sns_subscribe_url: subscribeUrl })
      .onConflict((oc) => oc.column('key_id').doUpdateSet({ sns_subscribe_url: subscribeUrl }))
      .execute();
  }

  async pendingSnsSubscriptions(): Promise<{ keyId: number; subscribeUrl: string }[]> {
    const rows = await this.db
      .selectFrom('outcome_keys')
      .select(['key_id', 'sns_subscribe_url'])
      .where('sns_subscribe_url', 'is not', null)
      .orderBy('key_id')
      .execute();
    return rows.map((row) => ({ keyId: row.key_id, subscribeUrl: row.sns_subscribe_url! }));
  }

  async settings(keyId: number): Promise<OutcomeKeySettings | undefined> {
    const row = await this.db.selectFrom('outcome_keys').selectAll().where('key_id', '=', keyId).executeTakeFirst();
    if (!row) return undefined;
    const secrets = row.secrets === null ? {} : (JSON.parse(this.box ? this.box.open(row.secrets) : row.secrets) as OutcomeSecrets);
    const settings: OutcomeKeySettings = { keyId, hasToken: row.token_hash !== null, secrets, share: row.share === 1 };
    if (row.sns_subscribe_url !== null) settings.snsSubscribeUrl = row.sns_subscribe_url;
    return settings;
  }
}
