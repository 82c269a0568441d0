/**
 * Probers under the connection budget, against a loopback SMTP server that notes when each
 * connection arrives: one token per connection, every connection after its token, tokens never
 * more than the budget in any window-long interval; fewer after the provider's "slow down" reply
 * and the full pace again after the cool-down; a probe the budget cannot serve before its deadline
 * ends unknown (20), never invalid. Tokens are noted by the budget's limiters
 * (test/helpers/recording-limiters.ts) as the span of their calls, and only tokens certainly
 * inside one interval are counted against the bound: no duration is asserted, and a slow machine
 * can weaken the check, never fail it (the exact pace is asserted on a fake clock in
 * src/storage/memory/memory-connection-budget.test.ts).
 */
import { systemClock } from '../../core/clock.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCountingSmtp, type CountingSmtp } from '../../../test/helpers/counting-smtp.js';
import { recordedBudget, type RecordedBudget } from '../../../test/helpers/recorded-budget.js';
import { mostCertainlyInAnyInterval, mostInAnyInterval, type Seen } from '../../../test/helpers/sliding-window.js';
import { memoryLimiters } from '../../storage/memory/memory-connection-budget.js';
import { decideProbeFailure } from '../decide-mailbox.js';
import { createMemoryFactCache } from '../fact-cache.js';
import { runMailboxStage } from '../mailbox-stage.js';
import { PROFILES } from '../providers/index.js';
import { statusesFor } from '../render.js';
import { createBatchingProber } from './batch-prober.js';
import type { BudgetTuning } from './connection-budget.js';
import { createSmtpProber, type ProbeOutcome, type SmtpProber } from './prober.js';
import type { Throttle } from './throttle.js';
import { until } from '../../../test/helpers/until.js';

const WINDOW_S = 2;
const WINDOW_MS = WINDOW_S * 1000;
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

/** The in-process budget (its limiters noting each token), as the probers use it. */
function throttled(perWindow: number, tuning: Partial<BudgetTuning> = {}): Throttle & { throttledFor: string[]; recorded: RecordedBudget } {
  const throttledFor: string[] = [];
  const recorded = recordedBudget(memoryLimiters, { keyPrefix: 'smtp-budget', windowSeconds: WINDOW_S, ...tuning });
  return { budget: recorded.budget, perWindow: () => perWindow, onThrottled: (p) => throttledFor.push(p), throttledFor, recorded };
}

/**
 * The connections the server saw were paced by `tokens`: one token each, each connection arriving
 * after its token was asked for, and no interval of `windowMs` certainly holding more than `most`.
 */
function expectPaced(tokens: readonly Seen[], most: number, windowMs = WINDOW_MS): void {
  expect(tokens).toHaveLength(smtp.connections.length);
  expect(mostCertainlyInAnyInterval(tokens, windowMs)).toBeLessThanOrEqual(most);
  const asked = tokens.map((t) => t.from).sort((a, b) => a - b);
  const arrived = [...smtp.connections].sort((a, b) => a - b);
  arrived.forEach((at, k) => expect(at).toBeGreaterThanOrEqual(asked[k]!));
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
  ])(
    '%s: every connection takes a token first, no interval of a window holds more than the budget, and every probe is answered',
    async (_name, batching) => {
      // 2 per 2 s: one token a second.
      const throttle = throttled(2);
      const outcomes = await probeMany(proberWith(throttle, batching), 5);
      expect(kinds(outcomes)).toEqual(['replies']);
      expect(smtp.connections).toHaveLength(5);
      expectPaced(throttle.recorded.taken(), 2);
    },
  );

  it('unthrottled, the same probes arrive at once: more than the budget in one window', async () => {
    const prober = createSmtpProber({ port: smtp.port, helo: 'probe.mailsure.com', from: 'verify@mailsure.com', maxSessionsPerHost: 20 });
    await probeMany(prober, 5);
    expect(mostInAnyInterval(smtp.connections, WINDOW_MS)).toBeGreaterThan(2);
  });

  it('hosts of no profiled provider (the default profile) are left to the per-host session limit', async () => {
    const prober = proberWith(throttled(1, { windowSeconds: 60 }));
    const outcomes = await Promise.all(
      [1, 2, 3].map((i) => prober.probe({ host: 'mx.example.net', addresses: [smtp.address] }, [`u${i}@example.net`], later(3_000))),
    );
    expect(kinds(outcomes)).toEqual(['replies']);
    expect(smtp.connections).toHaveLength(3);
  });

  it('a "slow down" reply cuts the next windows’ connections', async () => {
    const throttle = throttled(2, { coolDownSeconds: 600, slowDownCost: 2 });
    const prober = proberWith(throttle);
    smtp.slowDown = true;
    const slowed = await prober.probe(target(), ['someone@gmail.com'], later());
    expect(slowed.kind === 'replies' ? slowed.replies.get('someone@gmail.com')?.code : slowed.reply?.code).toBe(421);
    expect(await throttle.budget.coolingDown(key)).toBe(true);
    smtp.slowDown = false;
    smtp.connections.length = 0;

    expect(kinds(await probeMany(prober, 4))).toEqual(['replies']);
    expect(smtp.connections).toHaveLength(4);
    // 2 per window at cost 2 while cooling down: 1 a window, every connection paying the cut pace.
    expectPaced(throttle.recorded.taken('slow-pace'), 1);
    // And the whole budget, the connection that got the reply included.
    expect(mostCertainlyInAnyInterval(throttle.recorded.taken(), WINDOW_MS)).toBeLessThanOrEqual(2);
  });

  it('the budget comes back by itself after the cool-down', async () => {
    // 60 a minute (one a second); cut to one a minute.
    const throttle = throttled(60, { windowSeconds: 60, coolDownSeconds: 3, slowDownCost: 60 });
    const prober = proberWith(throttle);
    smtp.slowDown = true;
    await prober.probe(target(), ['someone@gmail.com'], later());
    expect(await throttle.budget.coolingDown(key)).toBe(true);
    smtp.slowDown = false;
    await until(async () => !(await throttle.budget.coolingDown(key)));
    smtp.connections.length = 0;
    const pacedBefore = throttle.recorded.taken().length;

    // Within a 30 s deadline: at the cut price only the first would go (the next a minute later).
    expect(kinds(await probeMany(prober, 3, later(30_000)))).toEqual(['replies']);
    expect(smtp.connections).toHaveLength(3);
    expect(throttle.recorded.taken('slow-pace')).toHaveLength(0);
    expectPaced(throttle.recorded.taken().slice(pacedBefore), 60, 60_000);
  });

  it('a probe the budget cannot serve before its deadline is throttled, without connecting', async () => {
    const throttle = throttled(1, { windowSeconds: 60 });
    const prober = proberWith(throttle);
    expect((await prober.probe(target(), ['a@gmail.com'], later())).kind).toBe('replies');
    const outcome = await prober.probe(target(), ['b@gmail.com'], later(3_000));
    expect(outcome).toMatchObject({ kind: 'throttled', detail: expect.stringContaining('Gmail / Google Workspace (egress-1)') });
    expect(smtp.connections).toHaveLength(1);
    expect(throttle.throttledFor).toEqual(['google']);
    expect(decideProbeFailure('throttled')).toBe(20);
  });
});

describe('verdicts of a throttled probe', () => {
  const google = PROFILES.find((profile) => profile.id === 'google')!;
  const stage = (prober: SmtpProber) => ({
    prober,
    catchAll: createMemoryFactCache<'yes' | 'no'>(systemClock),
    greylistRetryMs: 10,
    randomLocalPart: () => 'zq7random',
  });
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
