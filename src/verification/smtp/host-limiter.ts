/**
 * At most N concurrent sessions per MX host. Receivers count connections per client and start
 * refusing (421, or silently tarpitting) past a few; staying under that keeps our replies honest.
 * Waiting for a slot counts against the caller's deadline.
 */

export type Release = () => void;

/** The longest any session holds its slot: the real-time timeout's cap, and a list's shared session's life. */
export const MAX_HOLD_MS = 30_000;

export interface HostLimiter {
  /**
   * A release function, or null when the deadline passed while waiting. The slot must be given
   * back within MAX_HOLD_MS of getting it: a shared limiter lets a slot go by itself after that
   * (a process that died holding one). `max`: this host's own limit (its provider profile's),
   * instead of the limiter's one figure.
   */
  acquire(host: string, deadline: number, max?: number): Promise<Release | null>;
  /** Sessions running for a host right now (tests, metrics). */
  active(host: string): number;
}

/** A session limit; a figure that is not a positive integer is a programming error. */
export function checkedLimit(max: number): number {
  if (!Number.isInteger(max) || max < 1) throw new Error(`maxPerHost must be a positive integer, got ${max}`);
  return max;
}

interface Slot {
  active: number;
  waiting: (() => void)[];
}

export function createHostLimiter(maxPerHost: number): HostLimiter {
  checkedLimit(maxPerHost);
  const hosts = new Map<string, Slot>();

  const releaser = (key: string, slot: Slot): Release => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = slot.waiting.shift();
      // Hand the slot straight to the next waiter, so a newcomer cannot overtake the queue.
      if (next) return next();
      slot.active--;
      if (slot.active === 0) hosts.delete(key);
    };
  };

  return {
    acquire(host, deadline, max = maxPerHost) {
      checkedLimit(max);
      const key = host.toLowerCase();
      let slot = hosts.get(key);
      if (!slot) {
        slot = { active: 0, waiting: [] };
        hosts.set(key, slot);
      }
      const current = slot;
      if (current.active < max) {
        current.active++;
        return Promise.resolve(releaser(key, current));
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) return Promise.resolve(null);
      return new Promise((resolve) => {
        const granted = () => {
          clearTimeout(timer);
          resolve(releaser(key, current));
        };
        const timer = setTimeout(() => {
          const at = current.waiting.indexOf(granted);
          if (at >= 0) current.waiting.splice(at, 1);
          resolve(null);
        }, remaining);
        current.waiting.push(granted);
      });
    },
    active: (host) => hosts.get(host.toLowerCase())?.active ?? 0,
  };
}
