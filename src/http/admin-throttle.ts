/**
 * Admin token guessing is slowed per client address (issue 31 point 5), never locked out: the
 * first FREE_FAILURES wrong tokens from an address are answered at once; after that every
 * failure makes the address wait before its next try is even looked at (1 s, doubling to
 * LONGEST_WAIT_MS), and a try within the wait is 429 with Retry-After, the token unread. So
 * 3,000 guesses take days instead of seconds, while the operator who mistyped twice never waits.
 * A right token forgets the address's failures; so do QUIET_MS without one.
 *
 * One warning per burst (the failure that starts the slowing), not one per guess. The address is
 * the one the trusted-proxy setting yields (`request.ip`). Per process: with several API
 * processes behind a balancer, a guesser gets each process's allowance.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';

export const FREE_FAILURES = 5;
const FIRST_WAIT_MS = 1_000;
export const LONGEST_WAIT_MS = 60_000;
const QUIET_MS = 15 * 60_000;
/** Addresses remembered at most (the oldest forgotten first): a bound on memory whatever the traffic. */
const MAX_ADDRESSES = 10_000;

interface Failures {
  count: number;
  lastAt: number;
  /** No try is looked at before this instant. */
  waitUntil: number;
}

export interface AdminThrottle {
  /** Seconds the address must still wait before a try is looked at; 0 when it may try now. */
  waitSeconds(address: string): number;
  failed(address: string): void;
  succeeded(address: string): void;
}

export function createAdminThrottle(deps: { clock: Clock; logger: Logger }): AdminThrottle {
  const byAddress = new Map<string, Failures>();
  const current = (address: string): Failures | undefined => {
    const entry = byAddress.get(address);
    if (entry && deps.clock.now() - entry.lastAt > QUIET_MS) {
      byAddress.delete(address);
      return undefined;
    }
    return entry;
  };
  return {
    waitSeconds(address) {
      const entry = current(address);
      const left = entry ? entry.waitUntil - deps.clock.now() : 0;
      return left > 0 ? Math.ceil(left / 1000) : 0;
    },
    failed(address) {
      const now = deps.clock.now();
      const entry = current(address) ?? { count: 0, lastAt: now, waitUntil: 0 };
      entry.count += 1;
      entry.lastAt = now;
      const over = entry.count - FREE_FAILURES;
      if (over > 0) entry.waitUntil = now + Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.min(over - 1, 16));
      if (over === 1) {
        deps.logger.warn(
          { client_address: address, failures: entry.count },
          `admin token refused ${entry.count} times from ${address}: its next tries are slowed (logged once per burst)`,
        );
      }
      // Most recent last, so the first one is the oldest.
      byAddress.delete(address);
      byAddress.set(address, entry);
      if (byAddress.size > MAX_ADDRESSES) byAddress.delete(byAddress.keys().next().value!);
    },
    succeeded(address) {
      byAddress.delete(address);
    },
  };
}
