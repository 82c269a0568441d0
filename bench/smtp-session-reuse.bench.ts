/**
 * Mailbox probes per second against the test world's SMTP server, with session reuse (many RCPTs
 * per session, as lists batch addresses by domain) versus one session per address, in the same
 * run, through the same prober and the same per-host limit of two sessions.
 */
import { createSmtpProber } from '../src/verification/smtp/prober.js';
import { startTestWorld } from '../test/helpers/world/index.js';
import type { BenchResult } from './types.js';

const ADDRESSES = 600;
const BATCH = 50;

export default async function run(): Promise<BenchResult> {
  const world = await startTestWorld();
  const prober = createSmtpProber({
    port: world.smtpPort,
    helo: 'bench.mailsure.local',
    from: 'verify@mailsure.local',
    maxSessionsPerHost: 2,
  });
  const target = { host: `mx.${world.domains.mailboxOk}`, addresses: [world.smtpAddress('mailboxes')] };
  // Distinct recipients (replies are keyed by recipient); unknown ones cost the server the same lookup.
  const addresses = Array.from({ length: ADDRESSES }, (_, i) => `user${i}@${world.domains.mailboxOk}`);

  const timed = async (batches: string[][]): Promise<number> => {
    const started = performance.now();
    const outcomes = await Promise.all(batches.map((batch) => prober.probe(target, batch, Date.now() + 120_000)));
    const seconds = (performance.now() - started) / 1000;
    const answered = outcomes.reduce((n, o) => n + (o.kind === 'replies' ? o.replies.size : 0), 0);
    if (answered !== ADDRESSES) throw new Error(`expected ${ADDRESSES} replies, got ${answered}`);
    return ADDRESSES / seconds;
  };
  const batched = Array.from({ length: ADDRESSES / BATCH }, (_, i) => addresses.slice(i * BATCH, (i + 1) * BATCH));
  const single = addresses.map((a) => [a]);

  let best = { reuse: 0, single: 0 };
  try {
    await timed(batched.slice(0, 2)).catch(() => 0); // warm-up (partial: throws on count, ignored)
    for (let round = 0; round < 3; round++) {
      best = { reuse: Math.max(best.reuse, await timed(batched)), single: Math.max(best.single, await timed(single)) };
    }
  } finally {
    await world.close();
  }
  const ratio = best.reuse / best.single;
  return {
    title: 'SMTP probes with session reuse vs one session per address (test world, loopback)',
    ours: { label: `${BATCH} RCPTs per session`, value: Math.round(best.reuse), unit: 'probes/s' },
    baseline: { label: 'one session per address', value: Math.round(best.single), unit: 'probes/s' },
    ratio,
    goal: '≥ 20',
    met: ratio >= 20,
    notes: `${ADDRESSES} addresses at one domain through one prober (2 sessions per host), batches of ${BATCH} vs single probes; best of 3 alternating rounds`,
  };
}
