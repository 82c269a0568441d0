/** What accounts needs from the key store (storage/ implements it on every engine). */
import type { ApiKeyRecord, KeySettings } from './key-config.js';

export type NewApiKey = KeySettings & {
  name: string;
  keyHash: string;
  keyPrefix: string;
  webhookSecret: string;
  /** The demo key a first start makes (MAILSURE_DEMO), marked so that `mailsure demo remove` deletes it. */
  demo?: boolean;
};

export interface KeyStore {
  /** Fails with `DuplicateKeyName` when the name is taken. */
  create(key: NewApiKey): Promise<ApiKeyRecord>;
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  findByName(name: string): Promise<ApiKeyRecord | undefined>;
  /** By id, revoked or not (list workers act for the key that submitted). */
  findById(id: number): Promise<ApiKeyRecord | undefined>;
  list(): Promise<ApiKeyRecord[]>;
  /** Returns the updated record, or undefined when no key has that name. */
  update(name: string, changes: Partial<KeySettings>): Promise<ApiKeyRecord | undefined>;
  /** Marks the key revoked (kept for its usage history). Undefined when no key has that name. */
  revoke(name: string, at: string): Promise<ApiKeyRecord | undefined>;
  count(): Promise<number>;
  /** Adds `calls` to the key's quota counter; returns the new total. */
  addCalls(keyId: number, calls: number): Promise<number>;
}

export class DuplicateKeyName extends Error {
  constructor(readonly keyName: string) {
    super(`a key named "${keyName}" already exists`);
    this.name = 'DuplicateKeyName';
  }
}
