/**
 * Enrichment for one or many queries: lookups batched per identifier kind (one round trip per
 * kind and chunk, never one per record), activity stats batched likewise, then projection.
 * Name + postal queries go through a PersonMatcher (identity's fuzzy matcher, batched too).
 */
import { BULK_SLICE, inSlices } from '../core/in-slices.js';
import type { Clock } from '../core/clock.js';
import type { ActivityStore } from '../people/activity-store.js';
import { activityByEmail, findProfilesByEmail } from '../people/mailbox-lookup.js';
import type { PeopleStore } from '../people/people-store.js';
import { activityWindows, eamFrom, todayUtc } from './activity-metrics.js';
import type { EnrichQuery } from './enrich-query.js';
import type { FieldSelection } from './field-selection.js';
import type { ActivityStats, AddressKey, MatchedProfile, PersonProfile, PersonRecord } from '../people/person.js';
import { prepareRecord } from '../people/prepared-record.js';
import { answerFor, type EnrichmentAnswer } from './project.js';

export interface PersonMatcher {
  /** The person each name + postal query names (an Individual match), or undefined; one call for many. */
  matchNameAddress(queries: readonly EnrichQuery[]): Promise<(PersonRecord | undefined)[]>;
}

export interface EnrichService {
  /** One answer per query, in order ({} when nothing matched). */
  enrich(queries: readonly EnrichQuery[], selection: FieldSelection): Promise<EnrichmentAnswer[]>;
}

export function createEnrichService(deps: {
  people: PeopleStore;
  activity: ActivityStore;
  matcher: PersonMatcher;
  clock: Clock;
  /** How long "no activity is loaded" is remembered (default 5 s). */
  activityPresenceTtlMs?: number;
}): EnrichService {
  let activityLoaded: { value: boolean; expires: number } | undefined;
  /** Whether any activity is loaded: remembered for a while, so most calls answer without a query. */
  const hasActivity = (): boolean | Promise<boolean> => {
    const now = deps.clock.now();
    if (activityLoaded && activityLoaded.expires > now) return activityLoaded.value;
    return deps.activity.hasAny().then((value) => {
      activityLoaded = { value, expires: now + (deps.activityPresenceTtlMs ?? 5_000) };
      return value;
    });
  };
  return {
    enrich: (queries, selection) => inSlices(queries, BULK_SLICE, (slice) => enrichSlice(slice, selection)),
  };

  async function enrichSlice(queries: Parameters<EnrichService['enrich']>[0], selection: Parameters<EnrichService['enrich']>[1]) {
    const found = await findByAddress(deps.people, queries, selection.postalAddress);
    const matched: (PersonProfile | undefined)[] = found.map((f) => f?.profile);
    const byName = queries.flatMap((q, i) => (matched[i] === undefined && q.name ? [i] : []));
    if (byName.length > 0) {
      const people = await deps.matcher.matchNameAddress(byName.map((i) => queries[i]!));
      byName.forEach((queryIndex, k) => {
        const person = people[k];
        if (person) matched[queryIndex] = { record: prepareRecord(person), postal: person };
      });
    }

    // Activity metrics describe the address asked about; a hashed one is known only through the
    // address that matched it.
    const wantsEam = selection.eam.length > 0;
    const emails = queries.map((q, i) => (wantsEam ? (q.email ?? found[i]?.email) : undefined));
    const today = todayUtc(deps.clock.now());
    // With no activity loaded every address gets the default object: skip the lookup.
    let present = wantsEam ? hasActivity() : false;
    if (typeof present !== 'boolean') present = await present;
    const stats = present ? await activityByEmail(deps.activity, unique(emails), activityWindows(today)) : new Map<string, ActivityStats>();
    const withMonth = selection.eam.includes('month_last_open');

    return queries.map((q, i) => {
      const byEmailQuery = q.email !== undefined || q.sha1 !== undefined || q.md5 !== undefined;
      const eam = wantsEam && byEmailQuery ? eamFrom(emails[i] ? stats.get(emails[i]!) : undefined, today, withMonth) : undefined;
      // A postal address is appended to an address query only: a name + postal query already has it.
      const person = matched[i];
      return answerFor(person?.record, byEmailQuery ? person?.postal : undefined, eam, selection);
    });
  }
}

const ADDRESS_KEYS: readonly AddressKey[] = ['email', 'sha1', 'md5'];

/**
 * Each query's person by address, SHA-1 or MD5 (tried in that order): one lookup per kind the
 * queries use, none for the others, so a single /v5/td call makes exactly one.
 */
async function findByAddress(
  people: PeopleStore,
  queries: readonly EnrichQuery[],
  withPostal: boolean,
): Promise<(MatchedProfile | undefined)[]> {
  const kinds = ADDRESS_KEYS.filter((by) => queries.some((q) => q[by] !== undefined));
  // A plain address is looked up as written, then by its mailbox (people/mailbox-lookup.ts); a hash as given.
  const lookup = (by: AddressKey) => {
    const values = unique(queries.map((q) => q[by]));
    return by === 'email' ? findProfilesByEmail(people, values, withPostal) : people.findProfiles(by, values, withPostal);
  };
  // Most calls use one kind: no Promise.all for them.
  const maps = kinds.length === 1 ? [await lookup(kinds[0]!)] : await Promise.all(kinds.map(lookup));
  const byKind = new Map(kinds.map((by, i) => [by, maps[i]!]));
  return queries.map((q) => {
    for (const by of ADDRESS_KEYS) {
      const value = q[by];
      const hit = value === undefined ? undefined : byKind.get(by)?.get(value);
      if (hit) return hit;
    }
    return undefined;
  });
}

function unique(values: (string | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => v !== undefined))];
}
