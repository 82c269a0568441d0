/**
 * Enrichment for one or many queries: lookups batched per identifier kind (one round trip per
 * kind and chunk, never one per record), activity stats batched likewise, then projection.
 * Name + postal queries go through a PersonMatcher (identity's fuzzy matcher, batched too).
 */
import type { Clock } from '../core/clock.js';
import type { ActivityStore, PeopleStore } from '../storage/interfaces.js';
import { activityWindows, eamFrom, todayUtc } from './activity-metrics.js';
import type { EnrichQuery } from './enrich-query.js';
import { md5Hex, sha1Hex } from './email-hash.js';
import type { FieldSelection } from './field-selection.js';
import type { PersonRecord } from './person.js';
import { projectPerson, type EnrichmentRecord } from './project.js';

export interface PersonMatcher {
  /** The person each name + postal query names (an Individual match), or undefined; one call for many. */
  matchNameAddress(queries: readonly EnrichQuery[]): Promise<(PersonRecord | undefined)[]>;
}

export interface EnrichService {
  enrich(queries: EnrichQuery[], selection: FieldSelection): Promise<EnrichmentRecord[]>;
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
  const hasActivity = async (): Promise<boolean> => {
    const now = deps.clock.now();
    if (!activityLoaded || activityLoaded.expires <= now) {
      activityLoaded = { value: await deps.activity.hasAny(), expires: now + (deps.activityPresenceTtlMs ?? 5_000) };
    }
    return activityLoaded.value;
  };
  return {
    async enrich(queries, selection) {
      const [byEmail, bySha1, byMd5] = await Promise.all([
        deps.people.findManyByEmail(unique(queries.map((q) => q.email))),
        deps.people.findManyBySha1(unique(queries.map((q) => q.sha1))),
        deps.people.findManyByMd5(unique(queries.map((q) => q.md5))),
      ]);
      const matched: (PersonRecord | undefined)[] = queries.map(
        (q) => (q.email && byEmail.get(q.email)) || (q.sha1 && bySha1.get(q.sha1)) || (q.md5 && byMd5.get(q.md5)) || undefined,
      );
      const byName = queries.flatMap((q, i) => (matched[i] === undefined && q.name ? [i] : []));
      if (byName.length > 0) {
        const people = await deps.matcher.matchNameAddress(byName.map((i) => queries[i]!));
        byName.forEach((queryIndex, k) => (matched[queryIndex] = people[k]));
      }

      // Activity metrics describe the address asked about; a hashed one is known only through a
      // person who lists it.
      const wantsEam = selection.eam.length > 0;
      const emails = queries.map((q, i) => (wantsEam ? addressOf(q, matched[i]) : undefined));
      const today = todayUtc(deps.clock.now());
      // With no activity loaded every address gets the default object: skip the lookup.
      const stats = wantsEam && (await hasActivity()) ? await deps.activity.statsFor(unique(emails), activityWindows(today)) : new Map();
      const withMonth = selection.eam.includes('month_last_open');

      return queries.map((q, i) => {
        const byEmailQuery = q.email !== undefined || q.sha1 !== undefined || q.md5 !== undefined;
        const eam = wantsEam && byEmailQuery ? eamFrom(emails[i] ? stats.get(emails[i]!) : undefined, today, withMonth) : undefined;
        return projectPerson(matched[i], eam, selection, byEmailQuery);
      });
    },
  };
}

function addressOf(query: EnrichQuery, person: PersonRecord | undefined): string | undefined {
  if (query.email) return query.email;
  if (!person) return undefined;
  if (query.sha1) return person.emails.find((e) => sha1Hex(e) === query.sha1);
  if (query.md5) return person.emails.find((e) => md5Hex(e) === query.md5);
  return undefined;
}

function unique(values: (string | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => v !== undefined))];
}
