/**
 * Concurrent probes for the same address at the same MX host share one probe (single flight),
 * whatever the verdict memory's setting: a later call waits for the probe in flight, until its
 * own deadline, and reads its replies (its own catch-all probe answered by the first's). When
 * the first ends without replies (its time ran out, its session failed), a later call with time
 * left probes on its own. A real-time call never waits on a list row's probe (that one waits
 * behind real-time calls).
 */
import type { ProbeOptions, ProbeOutcome, ProbeRecord, ProbeTarget, RecipientReply, SmtpProber } from './prober.js';

interface Flight {
  outcome: Promise<ProbeOutcome>;
  catchAllProbe?: string;
  lane: NonNullable<ProbeOptions['lane']>;
  /** What the first probe recorded, when it was asked to (a later call's evidence reads it). */
  records: ProbeRecord[];
}

export function singleFlight(inner: SmtpProber): SmtpProber {
  const flights = new Map<string, Flight>();
  return {
    async probe(target, recipients, deadline, options = {}) {
      const address = recipients[0];
      const shaped = address !== undefined && recipients.length === (options.catchAllProbe === undefined ? 1 : 2);
      if (!shaped) return inner.probe(target, recipients, deadline, options);
      const key = flightKey(target, address);
      const lane = options.lane ?? 'list';
      const flight = flights.get(key);
      if (
        flight &&
        (options.catchAllProbe === undefined || flight.catchAllProbe !== undefined) &&
        (lane === 'list' || flight.lane === 'real-time')
      ) {
        const outcome = await untilDeadline(flight.outcome, deadline);
        if (outcome?.kind === 'replies') {
          // Its evidence is the first probe's conversation (the same address), marked as read from it.
          if (options.record)
            for (const record of flight.records.length > 0 ? flight.records : [{ host: target.host, egress: 'unknown', steps: [] }])
              options.record({ ...record, joined: true });
          return ownReplies(outcome, address, options.catchAllProbe, flight.catchAllProbe);
        }
        if (outcome === undefined) return { kind: 'timeout', detail: 'deadline reached waiting for the same address’s probe' };
        if (deadline <= Date.now()) return outcome;
      }
      const records: ProbeRecord[] = [];
      const record = options.record;
      const outcome = inner.probe(
        target,
        recipients,
        deadline,
        record ? { ...options, record: (r) => (records.push(r), record(r)) } : options,
      );
      const mine: Flight = {
        outcome,
        lane,
        records,
        ...(options.catchAllProbe !== undefined ? { catchAllProbe: options.catchAllProbe } : {}),
      };
      if (!flights.has(key)) flights.set(key, mine);
      try {
        return await outcome;
      } finally {
        if (flights.get(key) === mine) flights.delete(key);
      }
    },
  };
}

function flightKey(target: ProbeTarget, address: string): string {
  return `${target.host.toLowerCase()} ${target.addresses.join(',')} ${address}`;
}

/** The outcome, or undefined once `deadline` passes first. */
function untilDeadline(outcome: Promise<ProbeOutcome>, deadline: number): Promise<ProbeOutcome | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), Math.max(deadline - Date.now(), 0));
    void outcome.then((result) => {
      clearTimeout(timer);
      resolve(result);
    });
  });
}

/** The first probe's replies under this call's recipients: its address, and its catch-all probe's reply as its own. */
function ownReplies(
  outcome: Extract<ProbeOutcome, { kind: 'replies' }>,
  address: string,
  catchAllProbe: string | undefined,
  theirs: string | undefined,
): ProbeOutcome {
  const replies = new Map<string, RecipientReply>();
  const reply = outcome.replies.get(address);
  if (reply) replies.set(address, reply);
  const random = catchAllProbe !== undefined && theirs !== undefined ? outcome.replies.get(theirs) : undefined;
  if (catchAllProbe !== undefined && random) replies.set(catchAllProbe, random);
  return { ...outcome, replies };
}
