/**
 * Email append and postal append for one or many parsed requests: postal appends in one batched
 * email lookup, email appends in one batched match. Each answer is `{}`, or carries
 * `email_append` and/or `postal_address`, or is a typed refusal when the key may not do what the
 * record asks (the route renders it: the per-record 403 element, core/errors.ts).
 */
import { BULK_SLICE, inSlices } from '../../core/in-slices.js';
import type { PersonRecord } from '../../people/person.js';
import { postalAddressOf, type PostalAddressObject } from '../../enrichment/project.js';
import { findPeopleByEmail } from '../../people/mailbox-lookup.js';
import type { PeopleStore } from '../../people/people-store.js';
import type { IdentityMatch, IdentityMatcher } from '../match/types.js';
import type { AppendRequest } from './append-request.js';
import { identityQueryOf } from './from-enrich-query.js';

export interface EmailAppendEntry {
  email: string;
  email_match_type: 'Individual' | 'Household';
}

export interface AppendMatch {
  email_append?: EmailAppendEntry[];
  postal_address?: PostalAddressObject;
}

/** The key may do neither thing the record asks; `asked` is what the record asked first. */
export interface AppendRefusal {
  refused: 'not-permitted';
  asked: 'email_append' | 'postal_append';
}

export type AppendAnswer = AppendMatch | AppendRefusal;

export interface AppendPermissions {
  emailAppend: boolean;
  postalAppend: boolean;
}

/** An answer lists at most this many addresses: a household rarely has more, a list column one. */
export const MAX_APPENDED_EMAILS = 10;

export interface AppendService {
  append(requests: readonly AppendRequest[], allowed: AppendPermissions): Promise<AppendAnswer[]>;
}

export function createAppendService(deps: {
  people: Pick<PeopleStore, 'findManyByEmail' | 'findManyByMailbox'>;
  matcher: IdentityMatcher;
}): AppendService {
  return {
    append: (requests, allowed) => inSlices(requests, BULK_SLICE, (slice) => appendSlice(slice, allowed)),
  };

  async function appendSlice(requests: readonly AppendRequest[], allowed: AppendPermissions): Promise<AppendAnswer[]> {
    const doPostal = requests.map((r) => r.postalAppend && allowed.postalAppend);
    const doEmail = requests.map((r) => r.emailAppend && allowed.emailAppend);

    const emails = requests.flatMap((r, i) => (doPostal[i] ? [r.query.email!] : []));
    // The address as written, else the same mailbox written another way (people/mailbox-lookup.ts).
    const owners = emails.length > 0 ? await findPeopleByEmail(deps.people, emails) : new Map<string, PersonRecord>();
    const toMatch = requests.flatMap((r, i) => (doEmail[i] ? [i] : []));
    const matches = toMatch.length > 0 ? await deps.matcher.matchMany(toMatch.map((i) => identityQueryOf(requests[i]!.query)!)) : [];
    const matchesOf = new Map(toMatch.map((requestIndex, k) => [requestIndex, matches[k]!]));

    return requests.map((request, i): AppendAnswer => {
      if (!doPostal[i] && !doEmail[i]) {
        return { refused: 'not-permitted', asked: request.emailAppend ? 'email_append' : 'postal_append' };
      }
      const answer: AppendMatch = {};
      const owner = doPostal[i] ? owners.get(request.query.email!) : undefined;
      const postal = owner ? postalAddressOf(owner) : undefined;
      if (postal) answer.postal_address = postal;
      const appended = doEmail[i] ? emailAppendOf(matchesOf.get(i)!) : [];
      if (appended.length > 0) answer.email_append = appended;
      return answer;
    });
  }
}

/** Every address of each match, the Individual's first; an address is listed once. */
function emailAppendOf(matches: readonly IdentityMatch[]): EmailAppendEntry[] {
  const out: EmailAppendEntry[] = [];
  const seen = new Set<string>();
  for (const match of matches) {
    for (const email of match.person.emails) {
      if (seen.has(email) || out.length === MAX_APPENDED_EMAILS) continue;
      seen.add(email);
      out.push({ email, email_match_type: match.type });
    }
  }
  return out;
}

/** Billable units: each appended address and each postal address returned. */
export function countAppended(answer: AppendAnswer): number {
  if ('refused' in answer) return 0;
  return (answer.email_append?.length ?? 0) + (answer.postal_address ? 1 : 0);
}
