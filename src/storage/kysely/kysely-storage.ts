import { sql, type Kysely } from 'kysely';
import { engineOf, type Database } from '../database.js';
import type { Storage } from '../interfaces.js';
import { KyselyActivityStore } from './activity-store.js';
import { KyselyClientListStore } from './client-list-store.js';
import { KyselyDemoStore } from './demo-store.js';
import { KyselyKeyStore } from './key-store.js';
import type { SecretBox } from '../secret-box.js';
import { KyselyListStore } from './list-store.js';
import { KyselyPeopleStore } from './people-store.js';
import { KyselyPolicyStore } from './policy-store.js';
import { KyselyUsageStore } from './usage-store.js';
import { KyselyOutcomeKeyStore } from './outcome-key-store.js';
import { KyselyOutcomeStore } from './outcome-store.js';
import { KyselyVerdictRecordStore } from './verdict-record-store.js';

/** The stores over an already migrated database; `close` ends the connection(s). */
export function kyselyStorage(db: Kysely<Database>, options: { secrets?: SecretBox } = {}): Storage {
  let closing: Promise<void> | undefined;
  return {
    engine: engineOf(db),
    keys: new KyselyKeyStore(db, undefined, options.secrets),
    usage: new KyselyUsageStore(db),
    clientLists: new KyselyClientListStore(db),
    policy: new KyselyPolicyStore(db),
    people: new KyselyPeopleStore(db),
    activity: new KyselyActivityStore(db),
    lists: new KyselyListStore(db),
    demo: new KyselyDemoStore(db),
    outcomeKeys: new KyselyOutcomeKeyStore(db, options.secrets),
    outcomes: new KyselyOutcomeStore(db),
    verdictRecords: new KyselyVerdictRecordStore(db),
    async ping() {
      // The keys every call is authenticated with, not only the server: a lock held on them (a
      // stalled migration, a runaway transaction) makes the process unready, as it is.
      await sql`select 1 from api_keys limit 1`.execute(db);
    },
    // pg's Pool throws when ended twice; shutdown paths often call close more than once.
    close: () => (closing ??= db.destroy()),
  };
}
