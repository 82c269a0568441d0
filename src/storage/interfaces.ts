/**
 * What the composition root gets from a storage engine: one implementation of every store
 * interface, plus storage's own `engine`, `ping` and `close`. The store interfaces belong to the
 * domains that use them (each in its own folder); `sqlite/` and `postgres/` implement them over
 * kysely, `memory/` for unit tests, and one contract suite runs against each.
 */
import type { KeyStore } from '../accounts/key-store.js';
import type { UsageStore } from '../accounts/usage-store.js';
import type { ActivityStore } from '../people/activity-store.js';
import type { CandidateStore } from '../identity/match/candidate-store.js';
import type { BlockingColumnsStore } from '../identity/match/blocking-columns-store.js';
import type { PeopleStore } from '../people/people-store.js';
import type { ListStore } from '../lists/list-record.js';
import type { ClientListStore } from '../verification/client-list-store.js';
import type { PolicyStore } from '../verification/policy/policy-store.js';
import type { OutcomeKeyStore } from '../outcomes/outcome-key-store.js';
import type { OutcomeStore } from '../outcomes/outcome-store.js';
import type { VerdictRecordStore } from '../outcomes/verdict-record-store.js';

/** Everything the composition root gets from a storage engine. */
export interface Storage {
  /** `memory` is the test double of `storage/memory/`, never a production engine. */
  readonly engine: 'sqlite' | 'postgres' | 'memory';
  keys: KeyStore;
  usage: UsageStore;
  clientLists: ClientListStore;
  policy: PolicyStore;
  /**
   * The people, read by enrichment and identity append (PeopleStore) and by the matcher
   * (CandidateStore), whose blocking columns follow the live code (BlockingColumnsStore).
   */
  people: PeopleStore & CandidateStore & BlockingColumnsStore;
  activity: ActivityStore;
  lists: ListStore;
  demo: DemoStore;
  /** Outcome ingestion (issue 32): the keys' tokens and ESP secrets, the outcome lists and counts, the verdict record. */
  outcomeKeys: OutcomeKeyStore;
  outcomes: OutcomeStore;
  verdictRecords: VerdictRecordStore;
  /** Resolves when the database answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** What `mailsure demo remove` deleted. */
export interface DemoRemoval {
  keys: number;
  people: number;
  activityEvents: number;
  /** The demo keys' lists, whose rows went with them: the caller deletes their files. */
  listIds: number[];
}

/**
 * The demo key and synthetic people a first start makes (MAILSURE_DEMO, cli/demo-*.ts) are marked
 * as demo where they are stored; this is storage's own operation on those marks.
 */
export interface DemoStore {
  /**
   * In one transaction: the demo keys with their usage, client lists and lists; the demo people
   * with their addresses; the demo activity events. Nothing unmarked is touched.
   */
  remove(): Promise<DemoRemoval>;
}
