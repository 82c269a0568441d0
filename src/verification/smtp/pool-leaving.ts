/**
 * When a probe waiting in the shared pool (batch-prober.ts) leaves without a session of its
 * place: throttled at its last moment to connect when no session that has its token or is
 * connected has room for it, half the reserve later at the latest, at once when every session
 * connecting waits for a token that comes too late for it; `timeout` once its deadline has passed
 * (its timer may not have run yet on a loaded machine). Decisions over the queue's counts only.
 */
import { open, timedOut, type HostQueue, type Probe } from './pool-probe.js';
import { connectBy } from './session-queue.js';

function throttled(queue: HostQueue, probe: Probe): void {
  queue.waiting = queue.waiting.filter((other) => other !== probe);
  probe.settle({
    kind: 'throttled',
    detail: `no connection to ${probe.target.host} within the connection budget in time for the deadline`,
  });
}

/**
 * At a probe's last moment to get a connection: it leaves unless a session of its place that has
 * its token or is connected has room for it (that session takes it: the token is not wasted).
 */
export function waitedTooLong(queue: HostQueue, probe: Probe): void {
  if (probe.done || probe.claimed || hasRoomFor(queue, probe)) return;
  throttled(queue, probe);
}

/** Half the reserve after its last moment to connect, a probe no session has taken leaves: throttled. */
export function leaveUnasked(queue: HostQueue, probe: Probe): void {
  if (probe.done || probe.claimed) return;
  throttled(queue, probe);
}

/** Probes whose deadline has passed, answered `timeout` (their timers may not have run yet). */
export function answerExpired(queue: HostQueue): void {
  const now = Date.now();
  for (const probe of open(queue)) if (probe.deadline <= now) probe.settle(timedOut(probe));
  queue.waiting = open(queue);
}

/**
 * Whether a session that has its token or is connected could still take `probe`: RCPTs left
 * for all its recipients, or none asked yet (a fresh session takes its first probe whatever
 * its size).
 */
function hasRoomFor(queue: HostQueue, probe: Probe): boolean {
  for (const room of queue.rooms.values()) if (room >= probe.recipients.length || room >= queue.limits.rcptsPerSession) return true;
  return false;
}

/** A session's RCPTs left changed (or it ended): probes past their last moment that no session has room for leave now. */
export function roomChanged(queue: HostQueue, session: object, room: number | undefined): void {
  if (room === undefined) queue.rooms.delete(session);
  else queue.rooms.set(session, room);
  const now = Date.now();
  for (const probe of open(queue)) if (probe.giveUpAt !== undefined && probe.giveUpAt <= now) waitedTooLong(queue, probe);
}

/**
 * While every session connecting to the place waits for a budget token (none connected, none
 * holding a token), a probe whose last moment to connect comes before the earliest of those
 * tokens cannot be served: it is answered now (throttled), not at that last moment.
 */
export function noTokenInTime(queue: HostQueue, reserveMs: number): void {
  if (queue.connected > 0 || queue.tokened > 0 || queue.tokenAt.size === 0 || queue.tokenAt.size < queue.connecting) return;
  const earliest = Math.min(...queue.tokenAt.values());
  for (const probe of open(queue)) {
    if (!probe.claimed && connectBy(probe.deadline, reserveMs) < earliest) {
      probe.settle({
        kind: 'throttled',
        detail: `no connection to ${probe.target.host} within the connection budget in time for the deadline`,
      });
    }
  }
  queue.waiting = open(queue);
}
