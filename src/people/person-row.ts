/**
 * What a people store writes, prepared here so that every engine stores the same values and
 * storage computes none of them (docs/architecture.md, "People"): the upsert plan
 * (people-plan.ts), each person's normalised columns (exact lookups), blocking columns (the
 * matcher's, computed by the function identity gives: `personBlockingColumns`), ready record
 * (prepared-record.ts) and each address's SHA-1, MD5 and mailbox key (mailbox.ts). Pure.
 */
import { md5Hex, sha1Hex } from './email-hash.js';
import { mailboxKey } from './mailbox.js';
import type { NewPerson } from './person.js';
import type { BlockingOf, PeopleBatch, PersonRow } from './people-store.js';
import { normalizedColumns, planUpsert, uniqueEmails } from './people-plan.js';
import { prepareRecord } from './prepared-record.js';

/**
 * The batch a store's `upsert` takes. `blockingOf` is identity's `personBlockingColumns`: the
 * blocking keys are the matcher's, and the person model does not import the matcher (the caller
 * that stores people passes it).
 */
export function preparePeople(people: readonly NewPerson[], blockingOf: BlockingOf): PeopleBatch {
  const rowOf = new Map<NewPerson, PersonRow>();
  const row = (person: NewPerson): PersonRow => {
    let prepared = rowOf.get(person);
    if (prepared === undefined) {
      prepared = { person, normalized: normalizedColumns(person), blocking: blockingOf(person), record: prepareRecord(person) };
      rowOf.set(person, prepared);
    }
    return prepared;
  };
  const rows = people.map((p) => row({ ...p, emails: uniqueEmails(p.emails) }));
  const plan = planUpsert(people);
  const hashes = new Map<string, { sha1: string; md5: string; mailbox: string | null }>();
  for (const { person } of rows)
    for (const email of person.emails)
      if (!hashes.has(email)) hashes.set(email, { sha1: sha1Hex(email), md5: md5Hex(email), mailbox: mailboxKey(email) ?? null });
  return {
    rows,
    plan: plan.people.map((p) => ({ ...row(p), person: p })),
    hashes,
    count: plan.count,
  };
}
