/**
 * The one behaviour every storage engine must show. Each engine's test runs this against a
 * fresh, empty database per test (see contract.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityStoreContract } from './contract/activity-store-contract.js';
import { clientListStoreContract } from './contract/client-list-store-contract.js';
import type { OpenStorage } from './contract/fixtures.js';
import { keyStoreContract } from './contract/key-store-contract.js';
import { listStoreContract } from './contract/list-store-contract.js';
import { peopleStoreContract } from './contract/people-store-contract.js';
import { outcomeStoreContract } from './contract/outcome-store-contract.js';
import { policyStoreContract } from './contract/policy-store-contract.js';
import { reopenContract } from './contract/reopen-contract.js';
import { usageStoreContract } from './contract/usage-store-contract.js';
import type { Storage } from './interfaces.js';

export type { OpenStorage } from './contract/fixtures.js';

/**
 * @param make a fresh, empty, migrated storage.
 * @param reopen another handle on the database `make` created last; omit where there is no
 *   database to share (memory).
 */
export function runStorageContract(name: string, make: OpenStorage, reopen?: OpenStorage): void {
  describe(`storage contract: ${name}`, () => {
    let storage: Storage | undefined;
    const current = (): Storage => {
      if (storage === undefined) throw new Error('no storage is open');
      return storage;
    };

    beforeEach(async () => {
      storage = await make();
    });
    afterEach(async () => {
      await storage?.close();
      storage = undefined;
    });

    it('answers a ping', async () => {
      await expect(current().ping()).resolves.toBeUndefined();
    });

    keyStoreContract(current);
    usageStoreContract(current);
    clientListStoreContract(current);
    policyStoreContract(current);
    peopleStoreContract(current);
    activityStoreContract(current);
    listStoreContract(current);
    outcomeStoreContract(current);
    if (reopen) reopenContract(current, reopen);
  });
}
