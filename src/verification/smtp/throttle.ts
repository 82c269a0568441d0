/**
 * How the probers obey the connection budget (connection-budget.ts): the budget key of an MX host
 * (its provider profile and the egress a probe to it takes), and the slow-down replies that cut it.
 */
import { describeProxy } from '../../core/socks-proxy-url.js';
import { profileForHost, type ProviderProfile } from '../providers/index.js';
import type { BudgetKey, ConnectionBudget } from './connection-budget.js';
import { egressLabel, type SmtpEgress } from './egress.js';
import { replyMatches } from './reply-class.js';
import type { SmtpReply } from './smtp-reply.js';

/** How the probers use a budget: the budget, and how many connections per window a profile gets. */
export interface Throttle {
  budget: ConnectionBudget;
  /** Default: the profile's `limits.connectionsPerMinute`. */
  perWindow?: (profile: ProviderProfile) => number;
  /** Told each time a probe ends throttled (metrics). */
  onThrottled?: (provider: string) => void;
  /** Told each token taken, by provider and egress label (metrics: the budget used). */
  onToken?: (provider: string, egress: string) => void;
}

/**
 * The egress address as a budget key: the proxy without its password, `source <address>` for a
 * bound source address, or `direct`. By the way out, not the label, so processes whose settings
 * list the same egresses in another order still share each one's budget.
 */
export function egressIdentity(egress: SmtpEgress): string {
  return egress.proxy ? describeProxy(egress.proxy) : egress.localAddress ? `source ${egress.localAddress}` : 'direct';
}

export function budgetKeyFor(host: string, egress: SmtpEgress): { key: BudgetKey; profile: ProviderProfile } {
  const profile = profileForHost(host);
  return { key: { provider: profile.id, egress: egressIdentity(egress) }, profile };
}

/**
 * Takes one connection's token to `host`: undefined when the connection may go, or why not (the
 * budget spent until past the deadline; `onThrottled` is told). Hosts of no profiled provider
 * (the default profile: every other host, not one provider) have no budget: the per-host session
 * limit is their throttle.
 */
export async function budgetSpent(
  throttle: Throttle | undefined,
  host: string,
  egress: SmtpEgress,
  deadline: number,
  wanted?: () => boolean,
  onWait?: (nextAt: number) => void,
): Promise<string | undefined> {
  if (!throttle) return undefined;
  const { key, profile } = budgetKeyFor(host, egress);
  if (profile.kind === 'default') return undefined;
  const perWindow = throttle.perWindow ? throttle.perWindow(profile) : profile.limits.connectionsPerMinute;
  // No token for a connection that could not be used before its deadline, even one free now.
  if (deadline > Date.now() && (await throttle.budget.take(key, perWindow, deadline, wanted, onWait))) {
    throttle.onToken?.(key.provider, egressLabel(egress));
    return undefined;
  }
  throttle.onThrottled?.(key.provider);
  return `connection budget for ${profile.name} (${egressLabel(egress)}) spent until past the deadline`;
}

/** Cuts the budget when any of `replies` is the host's provider asking us to slow down. */
export async function slowDownIfAsked(
  throttle: Throttle | undefined,
  host: string,
  egress: SmtpEgress,
  replies: Iterable<Pick<SmtpReply, 'code' | 'text'> & { enhanced?: string }>,
): Promise<void> {
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
