import type { NewList } from '../../lists/list-record.js';
import type { NewApiKey } from '../../accounts/key-store.js';
import type { Storage } from '../interfaces.js';

/** Opens a storage; the contract closes what it opens. */
export type OpenStorage = () => Promise<Storage>;

/** The storage of the running test; set by the contract's beforeEach. */
export type CurrentStorage = () => Storage;

export function newKey(name: string, overrides: Partial<NewApiKey> = {}): NewApiKey {
  return {
    name,
    keyHash: `hash-of-${name}`,
    keyPrefix: name.slice(0, 6),
    webhookSecret: `secret-of-${name}`,
    services: ['verification'],
    variant: 'safe_to_send',
    fields: null,
    quota: null,
    rate: 500,
    recordRate: null,
    trial: false,
    bouncers: false,
    evidence: false,
    ...overrides,
  };
}

/** Creates a key and returns its id: usage and client lists belong to existing keys. */
export async function keyId(storage: Storage, name: string): Promise<number> {
  return (await storage.keys.create(newKey(name))).id;
}

/** A list as submitted: a CSV with a header, callback, purchased fields and evidence set; override what a test needs. */
export function newList(keyIdValue: number, overrides: Partial<NewList> = {}): NewList {
  return {
    keyId: keyIdValue,
    name: 'customers.csv',
    format: 'csv',
    delimiter: null,
    header: true,
    emailColumn: null,
    report: false,
    fields: ['age', 'gender'],
    callbackUrl: 'https://example.com/hook',
    evidence: true,
    sizeBytes: 3_000_000_000,
    createdAt: '2026-11-22T10:00:00.000Z',
    ...overrides,
  };
}
