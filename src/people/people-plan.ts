/**
 * What a people upsert writes, decided once for every engine (person-row.ts hands it to the
 * store): repeats of a person key collapse to the last one, and an email listed by several people
 * goes to the one listing it last. The result equals applying the people one by one, which is
 * what the memory store does. And the normalised form of a name + address lookup.
 */
import { normalizeEmail } from './email-hash.js';
import type { NameAddressQuery, NewPerson, PersonRecord } from './person.js';
import type { NormalizedPerson, NormalizedQuery, PeopleStore } from './people-store.js';
import { normalizeCity, normalizeName, normalizeState, normalizeStreet, zip5Of } from './person-key.js';

export interface UpsertPlan {
  /** One entry per person key, in the order of each key's last occurrence; emails are final. */
  people: NewPerson[];
  /** Counts as if the people were applied in order: a key new to the store and to this call is new. */
  count(existingKeys: ReadonlySet<string>): { inserted: number; updated: number };
}

export function planUpsert(input: readonly NewPerson[]): UpsertPlan {
  const byKey = new Map<string, NewPerson>();
  for (const person of input) {
    byKey.delete(person.personKey);
    byKey.set(person.personKey, { ...person, emails: uniqueEmails(person.emails) });
  }
  const owner = new Map<string, string>();
  for (const person of byKey.values()) for (const email of person.emails) owner.set(email, person.personKey);
  const people = [...byKey.values()].map((p) => ({ ...p, emails: p.emails.filter((e) => owner.get(e) === p.personKey) }));
  return {
    people,
    count(existingKeys) {
      const seen = new Set(existingKeys);
      let inserted = 0;
      for (const { personKey } of input) {
        if (!seen.has(personKey)) inserted += 1;
        seen.add(personKey);
      }
      return { inserted, updated: input.length - inserted };
    },
  };
}

/** Normalised, non-empty, each once, in the order listed. */
export function uniqueEmails(emails: readonly string[]): string[] {
  return [...new Set(emails.map(normalizeEmail))].filter((e) => e !== '');
}

export function normalizedColumns(p: Pick<NewPerson, 'firstName' | 'lastName' | 'address' | 'city' | 'state' | 'zip'>): NormalizedPerson {
  return {
    firstNorm: normalizeName(p.firstName),
    lastNorm: normalizeName(p.lastName),
    streetNorm: normalizeStreet(p.address),
    cityNorm: normalizeCity(p.city),
    state: normalizeState(p.state),
    zip5: zip5Of(p.zip),
  };
}

/**
 * Undefined when the query cannot match anyone: a name normalising to nothing, or a given part
 * that normalises to nothing (`!!!` as a street). Blank optional parts count as not given.
 */
export function normalizeQuery(q: NameAddressQuery): NormalizedQuery | undefined {
  const out: NormalizedQuery = { firstNorm: normalizeName(q.firstName), lastNorm: normalizeName(q.lastName) };
  if (out.firstNorm === '' || out.lastNorm === '') return undefined;
  const parts: [keyof NormalizedQuery, string | undefined, (s: string) => string][] = [
    ['streetNorm', q.address, normalizeStreet],
    ['cityNorm', q.city, normalizeCity],
    ['state', q.state, normalizeState],
    ['zip5', q.zip5, zip5Of],
  ];
  for (const [name, value, normalize] of parts) {
    if (value === undefined || value.trim() === '') continue;
    const normalized = normalize(value);
    if (normalized === '') return undefined;
    out[name] = normalized;
  }
  return out;
}

/** The exact lookup by name and address: nobody for a query that cannot match anyone. */
export async function lookupByNameAndAddress(
  store: Pick<PeopleStore, 'findByNameAndAddress'>,
  query: NameAddressQuery,
): Promise<PersonRecord[]> {
  const normalized = normalizeQuery(query);
  return normalized === undefined ? [] : store.findByNameAndAddress(normalized);
}
