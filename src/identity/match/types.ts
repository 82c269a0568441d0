/**
 * The identity matcher's boundary: a name + postal query in, candidate people out, each labelled
 * Individual (this person: full name and address agree) or Household (same address and last
 * name, another member or an unknown one).
 */
import type { PersonRecord } from '../../people/person.js';

/** Raw request values; the matcher normalises them. */
export interface IdentityQuery {
  first: string;
  middle?: string;
  last: string;
  street?: string;
  city?: string;
  state?: string;
  /** `12345` or `12345-6789`. */
  zip?: string;
  /** Helps the match when sent along: a candidate listing it is preferred. */
  email?: string;
}

export type MatchType = 'Individual' | 'Household';

export interface IdentityMatch {
  person: PersonRecord;
  type: MatchType;
  /** 0–1, from the agreement weights of the fields compared. */
  confidence: number;
}

export interface IdentityMatcher {
  /** Matches ordered Individual first, then by confidence; empty when nothing qualifies. */
  match(query: IdentityQuery): Promise<IdentityMatch[]>;
  /** The same for many queries with one store round trip per blocking key kind. */
  matchMany(queries: readonly IdentityQuery[]): Promise<IdentityMatch[][]>;
}
