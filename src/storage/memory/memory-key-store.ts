import type { ApiKeyRecord, KeySettings } from '../../accounts/key-config.js';
import { DuplicateKeyName, type KeyStore, type NewApiKey } from '../../accounts/key-store.js';
import { checkCount } from '../validate.js';

/** Records are cloned in and out, so callers can't change stored state by mutating a result. */
export class MemoryKeyStore implements KeyStore {
  private readonly byId = new Map<number, ApiKeyRecord>();
  private lastId = 0;

  constructor(private readonly now: () => Date = () => new Date()) {}

  async create(key: NewApiKey): Promise<ApiKeyRecord> {
    const records = [...this.byId.values()];
    if (records.some((r) => r.name === key.name)) throw new DuplicateKeyName(key.name);
    if (records.some((r) => r.keyHash === key.keyHash)) throw new Error('an API key with this hash already exists');
    const record: ApiKeyRecord = {
      id: ++this.lastId,
      name: key.name,
      keyHash: key.keyHash,
      keyPrefix: key.keyPrefix,
      webhookSecret: key.webhookSecret,
      services: [...key.services],
      variant: key.variant,
      fields: key.fields === null ? null : [...key.fields],
      quota: key.quota,
      rate: key.rate,
      recordRate: key.recordRate,
      trial: key.trial,
      bouncers: key.bouncers,
      evidence: key.evidence,
      callsUsed: 0,
      createdAt: this.now().toISOString(),
      revokedAt: null,
    };
    this.byId.set(record.id, record);
    return structuredClone(record);
  }

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    return this.copy(this.find((r) => r.keyHash === keyHash));
  }

  async findById(id: number): Promise<ApiKeyRecord | undefined> {
    return this.copy(this.byId.get(id));
  }

  async findByName(name: string): Promise<ApiKeyRecord | undefined> {
    return this.copy(this.find((r) => r.name === name));
  }

  async list(): Promise<ApiKeyRecord[]> {
    return [...this.byId.values()].sort((a, b) => a.id - b.id).map((r) => structuredClone(r));
  }

  async update(name: string, changes: Partial<KeySettings>): Promise<ApiKeyRecord | undefined> {
    const record = this.find((r) => r.name === name);
    if (record === undefined) return undefined;
    const { services, variant, fields, quota, rate, recordRate, trial, bouncers, evidence } = structuredClone(changes);
    // Only known settings, and undefined means "unchanged", as in the SQL stores.
    if (services !== undefined) record.services = services;
    if (variant !== undefined) record.variant = variant;
    if (fields !== undefined) record.fields = fields;
    if (quota !== undefined) record.quota = quota;
    if (rate !== undefined) record.rate = rate;
    if (recordRate !== undefined) record.recordRate = recordRate;
    if (trial !== undefined) record.trial = trial;
    if (bouncers !== undefined) record.bouncers = bouncers;
    if (evidence !== undefined) record.evidence = evidence;
    return structuredClone(record);
  }

  async revoke(name: string, at: string): Promise<ApiKeyRecord | undefined> {
    const record = this.find((r) => r.name === name);
    if (record === undefined) return undefined;
    record.revokedAt ??= at;
    return structuredClone(record);
  }

  async count(): Promise<number> {
    return this.byId.size;
  }

  async addCalls(keyId: number, calls: number): Promise<number> {
    checkCount('calls', calls);
    const record = this.byId.get(keyId);
    if (record === undefined) throw new Error(`no API key with id ${keyId}`);
    record.callsUsed += calls;
    return record.callsUsed;
  }

  private find(predicate: (record: ApiKeyRecord) => boolean): ApiKeyRecord | undefined {
    for (const record of this.byId.values()) if (predicate(record)) return record;
    return undefined;
  }

  private copy(record: ApiKeyRecord | undefined): ApiKeyRecord | undefined {
    return record && structuredClone(record);
  }
}
