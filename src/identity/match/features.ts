/**
 * What the scorer compares, computed the same way for a query and for a stored person, so both
 * sides of every comparison went through one normaliser.
 */
import type { PersonRecord } from '../../people/person.js';
import { normalizeCity, normalizeState } from '../../people/person-key.js';
import { parseStreet, type ParsedStreet } from '../address/index.js';
import { lastNamePhonetic, normalizePersonName, surnameGroups, type SurnameGroup } from '../name/index.js';
import type { IdentityQuery } from './types.js';

export interface IdentityFeatures {
  first: string;
  middle: string;
  last: string;
  /** The words of the last name (`garcia`, `lopez`; `delacruz` with its core `cruz`): see surnameGroups. */
  lastGroups: readonly SurnameGroup[];
  /** Jr, Sr, III…: father and son share everything else. */
  suffix: string;
  lastPhonetic: string;
  /** Undefined when no street line was given. */
  street: ParsedStreet | undefined;
  city: string;
  state: string;
  zip5: string;
  plus4: string;
  emails: readonly string[];
}

const ZIP = /^\s*(\d{5})(?:[-\s]?(\d{4}))?\s*$/;

export function queryFeatures(q: IdentityQuery): IdentityFeatures {
  return features(q.first, q.middle, q.last, q.street, q.city, q.state, q.zip, q.email ? [q.email.trim().toLowerCase()] : []);
}

export function personFeatures(p: PersonRecord): IdentityFeatures {
  return features(p.firstName, p.middleName ?? undefined, p.lastName, p.address, p.city, p.state, p.zip, p.emails);
}

/**
 * personFeatures, remembered per person: the same people come back as candidates again and
 * again (a household, a busy ZIP), and parsing their street is most of a match's cost. An entry
 * is used only while the person's name and address are what they were.
 */
export function cachedPersonFeatures(max = 50_000): (p: PersonRecord) => IdentityFeatures {
  const cache = new Map<number, { signature: string; features: IdentityFeatures }>();
  return (p) => {
    const signature = `${p.firstName}\u0000${p.middleName ?? ''}\u0000${p.lastName}\u0000${p.address}\u0000${p.city}\u0000${p.state}\u0000${p.zip}`;
    const hit = cache.get(p.id);
    if (hit && hit.signature === signature) return { ...hit.features, emails: p.emails };
    const computed = personFeatures(p);
    if (hit) cache.delete(p.id);
    else if (cache.size >= max) cache.delete(cache.keys().next().value!);
    cache.set(p.id, { signature, features: computed });
    return computed;
  };
}

function features(
  first: string,
  middle: string | undefined,
  last: string,
  street: string | undefined,
  city: string | undefined,
  state: string | undefined,
  zip: string | undefined,
  emails: readonly string[],
): IdentityFeatures {
  const name = normalizePersonName({ first, middle, last });
  const zipMatch = zip === undefined ? null : ZIP.exec(zip);
  return {
    first: name.first,
    middle: name.middle,
    last: name.last,
    lastGroups: surnameGroups(last),
    suffix: name.suffix ?? '',
    lastPhonetic: lastNamePhonetic(name.last),
    street: street === undefined || street.trim() === '' ? undefined : parseStreet(street),
    city: city === undefined ? '' : cityKey(city),
    state: state === undefined ? '' : normalizeState(state),
    zip5: zipMatch?.[1] ?? '',
    plus4: zipMatch?.[2] ?? '',
    emails,
  };
}

const CITY_ABBREVIATIONS: Readonly<Record<string, string>> = { ST: 'SAINT', STE: 'SAINTE', FT: 'FORT', MT: 'MOUNT', PT: 'POINT' };

/** `St. Louis` and `Saint Louis` compare equal, as USPS city names spell them out. */
export function cityKey(city: string): string {
  return normalizeCity(city)
    .split(' ')
    .map((word) => CITY_ABBREVIATIONS[word] ?? word)
    .join(' ');
}
