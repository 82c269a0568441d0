import type { NewApiKey, Storage } from '../interfaces.js';

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
    trial: false,
    bouncers: false,
    ...overrides,
  };
}

/** Creates a key and returns its id: usage and client lists belong to existing keys. */
export async function keyId(storage: Storage, name: string): Promise<number> {
  return (await storage.keys.create(newKey(name))).id;
}
