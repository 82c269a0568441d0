/** The one internal verification result; `render.ts` turns it into either response variant. */
import type { StatusCode } from './codes.js';
import type { VerdictLimit } from './health/health-state.js';

export const DOMAIN_TYPES = ['biz', 'disposable', 'edu', 'freeisp', 'gov', 'org', 'paidisp', 'parked', 'privacy', 'wireless'] as const;
export type DomainType = (typeof DOMAIN_TYPES)[number];

export interface Verdict {
  /** Standardized address, or the input echoed as given when it is not well-formed. */
  address: string;
  code: StatusCode;
  domainType?: DomainType;
  roleAccount: boolean;
  corrections?: string[];
  /** 0–10; only ever set from activity data. */
  engagementScore?: number;
  /** Why the verdict stops short: a fault of ours (prober health), not a fact about the address. */
  limit?: VerdictLimit;
  /**
   * The list entry that decided (520, 525) came from the key's ingested ESP outcomes (src/outcomes/),
   * not an imported list. Never in an API answer: lists count it (reporting.ts, `outcome_hits`).
   */
  fromOutcomes?: true;
}
