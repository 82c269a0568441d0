/**
 * Look-ups by a plain email address: the address as written first, then — for what that did not
 * find, and only where the address's domain has a mailbox rule (mailbox-rules.ts) — the same
 * mailbox written another way (`j.o.h.n.smith@gmail.com` finds a stored `johnsmith@gmail.com`).
 * One extra round trip per call at most, and none when every address was found as written or
 * none has a rule. Hashes are not looked up here: a hash is matched as given.
 */
import type { ActivityStore, ActivityWindows } from './activity-store.js';
import { mailboxKey } from './mailbox.js';
import type { PeopleStore } from './people-store.js';
import type { ActivityStats, MatchedProfile, PersonRecord } from './person.js';

/** `emails` → their mailbox keys, for those not in `found` whose domain has a rule. */
function keysOfMissing(emails: readonly string[], found: (email: string) => boolean): Map<string, string> {
  const keys = new Map<string, string>();
  for (const email of emails) {
    if (found(email)) continue;
    const key = mailboxKey(email);
    if (key !== undefined) keys.set(email, key);
  }
  return keys;
}

/** Fills `into[email]` from `byKey[key]` for every missing email with a key. */
function fill<V>(into: Map<string, V>, keys: ReadonlyMap<string, string>, byKey: ReadonlyMap<string, V>): Map<string, V> {
  for (const [email, key] of keys) {
    const hit = byKey.get(key);
    if (hit !== undefined) into.set(email, hit);
  }
  return into;
}

/** The person each address names: as written, else through its mailbox. */
export async function findPeopleByEmail(
  people: Pick<PeopleStore, 'findManyByEmail' | 'findManyByMailbox'>,
  emails: readonly string[],
): Promise<Map<string, PersonRecord>> {
  const unique = [...new Set(emails)];
  const found = await people.findManyByEmail(unique);
  const keys = keysOfMissing(unique, (email) => found.has(email));
  if (keys.size === 0) return found;
  return fill(found, keys, await people.findManyByMailbox([...new Set(keys.values())]));
}

/** `findProfiles('email', …)`, then through the mailbox for the addresses not found as written. */
export async function findProfilesByEmail(
  people: Pick<PeopleStore, 'findProfiles'>,
  emails: readonly string[],
  withPostal: boolean,
): Promise<Map<string, MatchedProfile>> {
  const found = await people.findProfiles('email', emails, withPostal);
  const keys = keysOfMissing(emails, (email) => found.has(email));
  if (keys.size === 0) return found;
  return fill(found, keys, await people.findProfiles('mailbox', [...new Set(keys.values())], withPostal));
}

/**
 * Activity per address: the events of the address as written; for an address without any, the
 * events of every stored spelling of its mailbox together.
 */
export async function activityByEmail(
  activity: Pick<ActivityStore, 'statsFor' | 'statsForMailboxes'>,
  emails: string[],
  windows: ActivityWindows,
): Promise<Map<string, ActivityStats>> {
  const stats = await activity.statsFor(emails, windows);
  const keys = keysOfMissing(emails, (email) => (stats.get(email)?.firstSeen ?? null) !== null);
  if (keys.size === 0) return stats;
  const byKey = await activity.statsForMailboxes([...new Set(keys.values())], windows);
  const seen = new Map([...byKey].filter(([, s]) => s.firstSeen !== null));
  return fill(stats, keys, seen);
}
