/**
 * How the probers obey the connection budget (connection-budget.ts): the budget key of an MX host
 * (its provider profile and the egress a probe to it takes), and the slow-down replies that cut it.
 */
import { describeProxy } from '../../core/socks-proxy-url.js';
import { profileForHost, type ProviderProfile } from '../providers/index.js';
import type { BudgetKey, ConnectionBudget } from './connection-budget.js';
import type { SmtpEgress } from './egress.js';
import { replyMatches } from './reply-class.js';
import type { SmtpReply } from './smtp-reply.js';

/** How the probers use a budget: the budget, and how many connections per window a profile gets. */
export interface Throttle {
  budget: ConnectionBudget;
  /** Default: the profile's `limits.connectionsPerMinute`. */
  perWindow?: (profile: ProviderProfile) => number;
  /** Told each time a probe ends throttled (metrics). */
  onThrottled?: (provider: string) => void;
}

/** The egress address as a budget key: the proxy without its credentials, or `direct`. */
export function egressIdentity(egress: SmtpEgress): string {
  return egress.proxy ? describeProxy(egress.proxy) : 'direct';
}

export function budgetKeyFor(host: string, egress: SmtpEgress): { key: BudgetKey; profile: ProviderProfile } {
  const profile = profileForHost(host);
  return { key: { provider: profile.id, egress: egressIdentity(egress) }, profile };
}

/** Cuts the budget when any of `replies` is the host's provider asking us to slow down. */
export async function slowDownIfAsked(throttle: Throttle | undefined, host: string, egress: SmtpEgress, replies: Iterable<Pick<SmtpReply, 'code' | 'text'> & { enhanced?: string }>): Promise<void> {
  if (!throttle) return;
  const { key, profile } = budgetKeyFor(host, egress);
  if (profile.kind === 'default') return;
  for (const reply of replies) {
    if (reply.code >= 400 && profile.replies.slowDown.some((pattern) => replyMatches(pattern, reply))) {
      await throttle.budget.slowDown(key);
      return;
    }
  }
}
