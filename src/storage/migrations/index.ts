/**
 * Every migration, by name, in order. Registered statically so they run from any build or
 * bundle without scanning the filesystem. Names sort in the order they must run; never rename
 * or edit one that has shipped, add the next.
 */
import type { Migration } from 'kysely';
import { accounts } from './0001-accounts.js';
import { policy } from './0002-policy.js';
import { keyBouncers } from './0003-key-bouncers.js';
import { people } from './0004-people.js';
import { identityBlocking } from './0005-identity-blocking.js';
import { lists } from './0006-lists.js';
import { personEmailOrder } from './0007-person-email-order.js';
import { personRecord } from './0008-person-record.js';
import { bouncersByDefault } from './0009-bouncers-by-default.js';
import { keyRecordRate } from './0010-key-record-rate.js';
import { demoMarks } from './0011-demo-marks.js';
import { keyEvidence } from './0012-key-evidence.js';
import { listEvidence } from './0013-list-evidence.js';
import { mailbox } from './0014-mailbox.js';
import { outcomes } from './0015-outcomes.js';
import { listVersion } from './0016-list-version.js';
import { derivedVersions } from './0017-derived-versions.js';

export const MIGRATIONS: Readonly<Record<string, Migration>> = Object.freeze({
  '0001-accounts': accounts,
  '0002-policy': policy,
  '0003-key-bouncers': keyBouncers,
  '0004-people': people,
  '0005-identity-blocking': identityBlocking,
  '0006-lists': lists,
  '0007-person-email-order': personEmailOrder,
  '0008-person-record': personRecord,
  '0009-bouncers-by-default': bouncersByDefault,
  '0010-key-record-rate': keyRecordRate,
  '0011-demo-marks': demoMarks,
  '0012-key-evidence': keyEvidence,
  '0013-list-evidence': listEvidence,
  '0014-mailbox': mailbox,
  '0015-outcomes': outcomes,
  '0016-list-version': listVersion,
  '0017-derived-versions': derivedVersions,
});
