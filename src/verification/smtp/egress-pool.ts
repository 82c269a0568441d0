/**
 * The egress pool: several ways out for probes (SOCKS5 proxies, local source addresses), each
 * with its own EHLO name, its own connection budget per provider (throttle.ts keys the budget by
 * egress) and its own health. A provider may be routed through some of them only. An egress the
 * way out fails on (its proxy down or refusing us, its source address unusable) is taken out of
 * rotation and reported; probes go on through the others, and are unknown only when none is
 * left. A failed egress is tried again by traffic after `retryMs`: one connection that works
 * puts it back, another failure keeps it out for another `retryMs`.
 */
import type { Logger } from '../../core/logger.js';
import { egressLabel, egressWay, type EgressChooser, type SmtpEgress } from './egress.js';

export interface EgressStatus {
  label: string;
  way: 'socks5' | 'source-address' | 'direct';
  healthy: boolean;
  /** Why it is out of rotation (no credentials, no address: the failure's kind in words). */
  detail?: string;
  /** When it went out of rotation (ms). */
  since?: number;
}

export interface EgressPool {
  readonly egresses: readonly SmtpEgress[];
  /** The egresses a probe to `mxHost` may take: its provider's route, in rotation or due a retry. */
  usable(mxHost: string): SmtpEgress[];
  /** Its provider's route, whatever their health. */
  routed(mxHost: string): SmtpEgress[];
  /** The way out failed through `egress`: out of rotation (reported once), until a retry works. */
  failed(egress: SmtpEgress, detail: string): void;
  /** A connection went out through `egress`: back in rotation. */
  worked(egress: SmtpEgress): void;
  healthy(egress: SmtpEgress): boolean;
  healthyCount(): number;
  status(): EgressStatus[];
  /** One egress per MX host, turn by turn among the usable ones (the one-probe prober's and the health check's). */
  chooser: EgressChooser;
}

export interface EgressPoolOptions {
  /** The provider profile id of an MX host, or undefined (no route applies). */
  providerOf: (mxHost: string) => string | undefined;
  /** Provider id → the labels its probes may take. */
  routes?: Readonly<Record<string, readonly string[]>>;
  now?: () => number;
  /** How long a failed egress stays out before traffic tries it again (default 60 s). */
  retryMs?: number;
  logger?: Logger;
  /** Told each time an egress goes out of or back into rotation (metrics). */
  onChange?: (status: EgressStatus) => void;
}

export function createEgressPool(egresses: readonly SmtpEgress[], options: EgressPoolOptions): EgressPool {
  if (egresses.length === 0) throw new RangeError('an egress pool needs at least one egress');
  const now = options.now ?? Date.now;
  const retryMs = options.retryMs ?? 60_000;
  const down = new Map<string, { since: number; retryAt: number; detail: string }>();
  const byLabel = new Map(egresses.map((egress) => [egressLabel(egress), egress]));
  let turn = 0;

  const statusOf = (egress: SmtpEgress): EgressStatus => {
    const label = egressLabel(egress);
    const out = down.get(label);
    return { label, way: egressWay(egress), healthy: !out, ...(out ? { detail: out.detail, since: out.since } : {}) };
  };
  const routed = (mxHost: string): SmtpEgress[] => {
    const provider = options.providerOf(mxHost);
    const labels = provider !== undefined ? options.routes?.[provider] : undefined;
    return labels
      ? labels.map((label) => byLabel.get(label)).filter((egress): egress is SmtpEgress => egress !== undefined)
      : [...egresses];
  };
  const usable = (mxHost: string): SmtpEgress[] => {
    const at = now();
    return routed(mxHost).filter((egress) => (down.get(egressLabel(egress))?.retryAt ?? -Infinity) <= at);
  };

  const pool: EgressPool = {
    egresses,
    routed,
    usable,
    failed(egress, detail) {
      const label = egressLabel(egress);
      const was = down.get(label);
      const at = now();
      down.set(label, { since: was?.since ?? at, retryAt: at + retryMs, detail: withoutCredentials(detail).slice(0, 200) });
      if (was) return;
      const left = pool.healthyCount();
      options.logger?.warn(
        { egress: label, healthy: left, total: egresses.length },
        `SMTP egress ${label} taken out of rotation (${left} of ${egresses.length} healthy): ${withoutCredentials(detail).slice(0, 200)}`,
      );
      options.onChange?.(statusOf(egress));
    },
    worked(egress) {
      const label = egressLabel(egress);
      if (!down.delete(label)) return;
      options.logger?.info(
        { egress: label, healthy: pool.healthyCount(), total: egresses.length },
        `SMTP egress ${label} back in rotation`,
      );
      options.onChange?.(statusOf(egress));
    },
    healthy: (egress) => !down.has(egressLabel(egress)),
    healthyCount: () => egresses.filter((egress) => !down.has(egressLabel(egress))).length,
    status: () => egresses.map(statusOf),
    chooser(mxHost) {
      const candidates = usable(mxHost);
      const from = candidates.length > 0 ? candidates : routed(mxHost);
      return from[turn++ % from.length]!;
    },
  };
  return pool;
}

/**
 * A failure's text as the operator view shows it beside the label: the proxy's URL (its user name
 * and address) and a source address replaced by words, so only the label names the egress.
 */
export function withoutCredentials(text: string): string {
  return text.replace(/socks5:\/\/\S+/gi, 'the proxy').replace(/source address \S+/gi, 'the source address');
}
