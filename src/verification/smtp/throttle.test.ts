/**
 * Probers under the connection budget, against a loopback SMTP server that counts the connections
 * it sees: no more than the budget per window, fewer after the provider's "slow down" reply and
 * back to the full budget after the cool-down, and a probe the budget cannot serve before its
 * deadline ends unknown (20), never invalid. Windows are seen as bursts of connections at the
 * server (test/helpers/counting-smtp.ts); no duration is asserted.
 */
import { systemClock } from '../../core/clock.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bursts, startCountingSmtp, type CountingSmtp } from '../../../test/helpers/counting-smtp.js';
import { createMemoryConnectionBudget } from '../../storage/memory/memory-connection-budget.js';
import { decideProbeFailure } from '../decide-mailbox.js';
import { createMemoryFactCache } from '../fact-cache.js';
import { runMailboxStage } from '../mailbox-stage.js';
import { PROFILES } from '../providers/index.js';
import { statusesFor } from '../render.js';
import { createBatchingProber } from './batch-prober.js';
import type { BudgetTuning } from './connection-budget.js';
import { createSmtpProber, type ProbeOutcome, type SmtpProber } from './prober.js';
import type { Throttle } from './throttle.js';

const WINDOW_S = 2;
const GAP_MS = (WINDOW_S * 1000) / 2;
const GOOGLE_MX = 'gmail-smtp-in.l.google.com';
const key = { provider: 'google', egress: 'direct' };

let smtp: CountingSmtp;
beforeAll(async () => {
  smtp = await startCountingSmtp();
});
afterAll(() => smtp.close());
beforeEach(() => {
  smtp.connections.length = 0;
  smtp.slowDown = false;
});

const target = () => ({ host: GOOGLE_MX, addresses: [smtp.address] });
const later = (ms = 30_000) => Date.now() + ms;

function throttled(perWindow: number, tuning: Partial<BudgetTuning> = {}): Throttle & { throttledFor: string[] } {
  const throttledFor: string[] = [];
  return { budget: createMemoryConnectionBudget({ windowSeconds: WINDOW_S, ...tuning }), perWindow: () => perWindow, onThrottled: (p) => throttledFor.push(p), throttledFor };
}

function proberWith(throttle: Throttle, batching = false): SmtpProber {
  const identity = { port: smtp.port, helo: 'probe.mailsure.com', from: 'verify@mailsure.com', maxSessionsPerHost: 20, throttle };
  return batching ? createBatchingProber({ ...identity, rcptsPerSession: 1 }) : createSmtpProber(identity);
}

const probeMany = (prober: SmtpProber, count: number, deadline = later()) =>
  Promise.all(Array.from({ length: count }, (_, i) => prober.probe(target(), [`user${i}@gmail.com`], deadline)));

function kinds(outcomes: ProbeOutcome[]): string[] {
  return [...new Set(outcomes.map((o) => o.kind))];
}

describe('probers under the connection budget', () => {
  it.each([
    ['real-time prober', false],
    ['batching prober', true],
  ])('%s: the server sees no more than the budget per window, and every probe is answered', async (_name, batching) => {
    const prober = proberWith(throttled(3), batching);
    const outcomes = await probeMany(prober, 9);
    expect(kinds(outcomes)).toEqual(['replies']);
    expect(smtp.connections).toHaveLength(9);
    const sizes = bursts(smtp.connections, GAP_MS);
    expect(sizes.length).toBeGreaterThanOrEqual(3);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(3);
  });

  it('unthrottled, the same probes arrive at once (the check above can fail)', async () => {
    const prober = createSmtpProber({ port: smtp.port, helo: 'probe.mailsure.com', from: 'verify@mailsure.com', maxSessionsPerHost: 20 });
    await probeMany(prober, 9);
    expect(Math.max(...bursts(smtp.connections, GAP_MS))).toBeGreaterThan(3);
  });

  it('hosts of no profiled provider (the default profile) are left to the per-host session limit', async () => {
    const prober = proberWith(throttled(1, { windowSeconds: 60 }));
    const outcomes = await Promise.all([1, 2, 3].map((i) => prober.probe({ host: 'mx.example.net', addresses: [smtp.address] }, [`u${i}@example.net`], later(3_000))));
    expect(kinds(outcomes)).toEqual(['replies']);
    expect(smtp.connections).toHaveLength(3);
  });

  it('a "slow down" reply cuts the next windows’ connections', async () => {
    const throttle = throttled(4, { coolDownSeconds: 600, slowDownCost: 2 });
    const prober = proberWith(throttle);
    smtp.slowDown = true;
    const slowed = await prober.probe(target(), ['someone@gmail.com'], later());
    expect(slowed.kind === 'replies' ? slowed.replies.get('someone@gmail.com')?.code : slowed.reply?.code).toBe(421);
    expect(await throttle.budget.coolingDown(key)).toBe(true);
    smtp.slowDown = false;
    smtp.connections.length = 0;

    expect(kinds(await probeMany(prober, 6))).toEqual(['replies']);
    const sizes = bursts(smtp.connections, GAP_MS);
    expect(sizes.reduce((a, b) => a + b)).toBe(6);
    // 4 per window at cost 2 while cooling down: 2 a window.
    for (const size of sizes) expect(size).toBeLessThanOrEqual(2);
  });

  it('the budget comes back by itself after the cool-down', async () => {
    const throttle = throttled(4, { coolDownSeconds: 3, slowDownCost: 2 });
    const prober = proberWith(throttle);
    smtp.slowDown = true;
    await prober.probe(target(), ['someone@gmail.com'], later());
    expect(await throttle.budget.coolingDown(key)).toBe(true);
    smtp.slowDown = false;
    await waitFor(async () => !(await throttle.budget.coolingDown(key)));
    smtp.connections.length = 0;

    expect(kinds(await probeMany(prober, 8))).toEqual(['replies']);
    const sizes = bursts(smtp.connections, GAP_MS);
    // The first window after the cool-down has the full budget again (more than the 2 of the cut).
    expect(sizes[0]).toBe(4);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(4);
  });

  it('a probe the budget cannot serve before its deadline is throttled, without connecting', async () => {
    const throttle = throttled(1, { windowSeconds: 60 });
    const prober = proberWith(throttle);
    expect((await prober.probe(target(), ['a@gmail.com'], later())).kind).toBe('replies');
    const outcome = await prober.probe(target(), ['b@gmail.com'], later(3_000));
    expect(outcome).toMatchObject({ kind: 'throttled', detail: expect.stringContaining('Gmail / Google Workspace (direct)') });
    expect(smtp.connections).toHaveLength(1);
    expect(throttle.throttledFor).toEqual(['google']);
    expect(decideProbeFailure('throttled')).toBe(20);
  });
});

describe('verdicts of a throttled probe', () => {
  const google = PROFILES.find((profile) => profile.id === 'google')!;
  const stage = (prober: SmtpProber) => ({ prober, catchAll: createMemoryFactCache<'yes' | 'no'>(systemClock), greylistRetryMs: 10, randomLocalPart: () => 'zq7random' });
  const mailbox = (recipient: string) => ({ recipient, asciiDomain: 'gmail.com', hosts: [target()], profile: google });

  it('an unknown user is 400 with budget left, and 20 (unknown in the legacy variant, never invalid) once the budget is spent past the deadline', async () => {
    const prober = proberWith(throttled(1, { windowSeconds: 60 }));
    expect((await runMailboxStage(stage(prober), mailbox('unknown@gmail.com'), later())).code).toBe(400);
    const spent = await runMailboxStage(stage(prober), mailbox('unknown@gmail.com'), later(3_000));
    expect(spent.code).toBe(20);
    // The legacy variant says unknown; neither variant says invalid.
    expect(statusesFor(spent.code)[1]).toBe('unknown');
    expect(statusesFor(spent.code)).not.toContain('invalid');
    expect(smtp.connections).toHaveLength(1);
  });
});

async function waitFor(condition: () => Promise<boolean>, bound = 20_000): Promise<void> {
  const until = Date.now() + bound;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met within the bound');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
