import type { Storage } from '../interfaces.js';
import { MemoryActivityStore } from './memory-activity-store.js';
import { MemoryClientListStore } from './memory-client-list-store.js';
import { MemoryKeyStore } from './memory-key-store.js';
import { MemoryListStore } from './memory-list-store.js';
import { MemoryPeopleStore } from './memory-people-store.js';
import { MemoryPolicyStore } from './memory-policy-store.js';
import { MemoryUsageStore } from './memory-usage-store.js';
import { MemoryOutcomeKeyStore, MemoryOutcomeStore, MemoryVerdictRecordStore } from './memory-outcome-stores.js';

/** A fresh, empty storage in this process's memory: for unit tests of the domain modules. */
export function openMemoryStorage(opts: { now?: () => Date } = {}): Storage {
  return {
    engine: 'memory',
    keys: new MemoryKeyStore(opts.now),
    usage: new MemoryUsageStore(),
    clientLists: new MemoryClientListStore(),
    policy: new MemoryPolicyStore(),
    people: new MemoryPeopleStore(),
    activity: new MemoryActivityStore(),
    lists: new MemoryListStore(opts.now),
    // The memory stores keep no demo marks: the demo is made and removed on a real database only.
    demo: { remove: () => Promise.reject(new Error('the memory storage keeps no demo marks')) },
    outcomeKeys: new MemoryOutcomeKeyStore(),
    outcomes: new MemoryOutcomeStore(),
    verdictRecords: new MemoryVerdictRecordStore(),
    async ping() {},
    async close() {},
  };
}
