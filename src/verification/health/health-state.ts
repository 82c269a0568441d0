/**
 * What the prober knows about its own network: one value per concern, with the evidence that
 * decided it and a one-line hint for the operator. "invalid" must be proof about an address,
 * never a fault of ours; these states are how the verdicts know which faults are ours.
 */

export type HealthLevel = 'ok' | 'degraded' | 'failed' | 'unknown';

/**
 * - `resolver`: can DNS answers be trusted (canaries have MX, a random name is NXDOMAIN)?
 * - `smtp_egress`: can we reach port 25 of other people's MX hosts?
 * - `identity`: is the prober's name and address one providers accept (HELO, PTR, block lists)?
 */
export const CONCERNS = ['resolver', 'smtp_egress', 'identity'] as const;
export type Concern = (typeof CONCERNS)[number];

export interface ConcernHealth {
  state: HealthLevel;
  /** What was seen, one short sentence each, no email address ever. */
  evidence: string[];
  /** What the operator should change, when the state is not `ok`. */
  hint?: string;
  /** When the state was last decided (ms since epoch). */
  checkedAt?: number;
}

export type ProberHealthState = Record<Concern, ConcernHealth>;

const RANK: Record<HealthLevel, number> = { ok: 0, unknown: 1, degraded: 2, failed: 3 };

/** The worse of two levels (`failed` > `degraded` > `unknown` > `ok`). */
export function worse(a: HealthLevel, b: HealthLevel): HealthLevel {
  return RANK[a] >= RANK[b] ? a : b;
}

export const unknownConcern = (why: string): ConcernHealth => ({ state: 'unknown', evidence: [why] });

/** Whether mailbox (SMTP) verdicts can be given at all. */
export function mailboxVerificationAvailable(state: ProberHealthState): boolean {
  return state.resolver.state !== 'failed' && state.smtp_egress.state !== 'failed';
}

/**
 * Why a verdict stopped short of what it would otherwise have said: our resolver is not trusted,
 * our SMTP egress is blocked, a provider refused us (our address or name), not the recipient, or
 * the provider's connection budget was spent or it asked us to slow down (`throttled`: a list
 * holds such rows back and asks again later).
 */
export type VerdictLimit = 'resolver' | 'smtp-egress' | 'reputation' | 'throttled';
