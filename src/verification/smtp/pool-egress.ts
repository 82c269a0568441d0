/**
 * Which egress a session of the shared pool takes (batch-prober.ts): among the usable egresses of
 * the pool with a session slot left at the place, one whose budget has a token now, then the one
 * with the fewest sessions, ties taken in turn; and the health observer as each egress's sessions
 * report to it, so that an egress's failures take it out of the pool first. Without a pool, the
 * chooser's egress (one per MX host).
 */
import { budgetKeyFor } from './throttle.js';
import { egressLabel, type EgressChooser, type SmtpEgress } from './egress.js';
import type { EgressPool } from './egress-pool.js';
import { open, type HostQueue } from './pool-probe.js';
import type { ProbeObserver } from './prober.js';

export interface PoolEgress {
  /** More than one egress: each has its own sessions per host. */
  pooled: boolean;
  /** The egresses sessions of a queue may take. */
  egressesOf(queue: HostQueue): SmtpEgress[];
  /** The egress a new session of `queue` takes, or undefined when none has a slot (or none is left: what waits is then answered). */
  egressFor(queue: HostQueue): SmtpEgress | undefined;
  observerFor(egress: SmtpEgress): ProbeObserver | undefined;
  /** Told when an egress's budget for a host's provider next gives a token (learnt from a wait). */
  tokenWaited(host: string, egress: SmtpEgress, nextAt: number): void;
}

export function poolEgress(chooser: EgressChooser, pool: EgressPool | undefined, observer: ProbeObserver | undefined): PoolEgress {
  const pooled = pool !== undefined && pool.egresses.length > 1;
  /** When each egress's budget for a provider may next give a token (learnt from its waits). */
  const nextTokenAt = new Map<string, number>();
  const budgetSlot = (host: string, egress: SmtpEgress) => `${budgetKeyFor(host, egress).key.provider}|${egressLabel(egress)}`;
  /** The egresses sessions of a queue may take. */
  const egressesOf = (queue: HostQueue): SmtpEgress[] => {
    const host = open(queue)[0]?.target.host ?? queue.waiting[0]?.target.host;
    if (!pool || host === undefined) return [chooser(host ?? '')];
    return pool.usable(host);
  };
  /**
   * The egress a new session of `queue` takes: among the usable ones with a session slot left
   * here, one whose budget has a token now, then the fewest sessions; undefined when none has a
   * slot. With no usable egress left, what waits is answered `egress-failed`.
   */
  const egressFor = (queue: HostQueue): SmtpEgress | undefined => {
    const host = open(queue)[0]?.target.host;
    if (host === undefined) return undefined;
    if (!pool) return chooser(host);
    const usable = pool.usable(host);
    if (usable.length === 0) {
      for (const probe of open(queue)) probe.settle({ kind: 'egress-failed', detail: 'no healthy SMTP egress left for this host' });
      queue.waiting = [];
      return undefined;
    }
    const at = Date.now();
    const sessionsOf = (egress: SmtpEgress) => queue.byEgress.get(egressLabel(egress)) ?? 0;
    const free = usable.filter((egress) => sessionsOf(egress) < queue.limits.maxSessionsPerHost);
    if (free.length === 0) return undefined;
    const waitOf = (egress: SmtpEgress) => Math.max((nextTokenAt.get(budgetSlot(host, egress)) ?? 0) - at, 0);
    const rank = (egress: SmtpEgress) => [waitOf(egress) > 0 ? 1 : 0, sessionsOf(egress), waitOf(egress)];
    // Ties go round: each choice starts one egress further along.
    const start = turn++ % free.length;
    return [...free.slice(start), ...free.slice(0, start)].reduce((best, egress) => {
      const [a, b] = [rank(egress), rank(best)];
      return a[0]! < b[0]! || (a[0] === b[0] && (a[1]! < b[1]! || (a[1] === b[1] && a[2]! < b[2]!))) ? egress : best;
    });
  };
  let turn = 0;
  /** The health observer as one egress's sessions report to it: its failures take it out of the pool first. */
  const observerFor = (egress: SmtpEgress): ProbeObserver | undefined => {
    if (!pool) return observer;
    return {
      connection(host, address, connected, detail) {
        if (connected) pool.worked(egress);
        observer?.connection(host, address, connected, detail);
      },
      refusal: (host, text) => observer?.refusal(host, text),
      egressFailed(host, detail) {
        pool.failed(egress, detail);
        // The way out is blocked for verdicts only when no egress is left.
        if (pool.healthyCount() === 0) observer?.egressFailed(host, detail);
      },
    };
  };
  return {
    pooled,
    egressesOf,
    egressFor,
    observerFor,
    tokenWaited: (host, egress, nextAt) => nextTokenAt.set(budgetSlot(host, egress), nextAt),
  };
}
