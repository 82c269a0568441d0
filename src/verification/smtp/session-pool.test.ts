/**
 * The shared session pool (batch-prober.ts) on a fake clock: random arrival schedules of
 * real-time and list probes at one provider's MX host, a scripted SMTP server behind the
 * connection (so time is only the fake clock's) and a connection budget that hands out one token
 * per interval. Whatever the schedule: never more sessions at once nor RCPTs in one session than
 * the place allows, every probe answered by its own deadline (throttled ones by the moment they
 * stopped waiting), every answer true to the server, and a probe asked in a session always
 * answered from it (never its time run out). Then a list at full speed beside real-time calls: each call is served
 * ahead of the list's rows.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBatchingProber } from './batch-prober.js';
import type { BudgetKey, ConnectionBudget } from './connection-budget.js';
import type { ProbeOutcome, ProbeRecord, ProbeTarget, RecipientReply } from './prober.js';
import type { Lane } from './session-queue.js';
import { singleFlight } from './single-flight.js';
import type { openSmtpSession, SmtpSession } from './smtp-session.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'Date'] });
  vi.setSystemTime(0);
});
afterEach(() => {
  vi.useRealTimers();
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
// A Google MX name: the profile with a connection budget.
const TARGET: ProbeTarget = { host: 'aspmx.l.google.com', addresses: ['192.0.2.1'] };

/** The scripted server: `yes…` local parts exist, every other is an unknown user. */
function replyTo(recipient: string): RecipientReply {
  return recipient.startsWith('yes')
    ? { class: 'accepted', greylisted: false, code: 250, text: 'OK', stage: 'rcpt' }
    : { class: 'no-mailbox', greylisted: false, code: 550, enhanced: '5.1.1', text: 'no such user', stage: 'rcpt' };
}

interface World {
  connect: typeof openSmtpSession;
  budget: ConnectionBudget;
  /** RCPTs each session sent, in order. */
  sessions: string[][];
  /** Tokens given, each with the session it opened (index into `sessions`, once connected). */
  tokens: number;
  active: number;
  maxActive: number;
}

function scriptedWorld(timing: { connectMs: number; rcptMs: number; tokenEveryMs: number }): World {
  const world: World = { sessions: [], tokens: 0, active: 0, maxActive: 0 } as unknown as World;
  let nextToken = 0;
  // As the real budget: a token is taken when it is free, after a wait if the deadline allows it.
  world.budget = {
    async take(_key: BudgetKey, _perWindow: number, deadline: number, wanted?: () => boolean) {
      for (let waited = false; ; waited = true) {
        if (waited && wanted && !wanted()) return false;
        if (Date.now() >= nextToken) {
          nextToken = Date.now() + timing.tokenEveryMs;
          world.tokens++;
          return true;
        }
        if (nextToken >= deadline) return false;
        await sleep(nextToken - Date.now());
      }
    },
    slowDown: () => Promise.resolve(),
    coolingDown: () => Promise.resolve(false),
  };
  world.connect = async () => {
    await sleep(timing.connectMs);
    const sent: string[] = [];
    world.sessions.push(sent);
    world.active++;
    world.maxActive = Math.max(world.maxActive, world.active);
    let open = true;
    const done = () => {
      if (open) world.active--;
      open = false;
    };
    const session = {
      tls: false,
      smtputf8: false,
      get usable() {
        return open;
      },
      setDeadline() {},
      async askAll(groups: readonly (readonly string[])[], replies: readonly Map<string, RecipientReply>[], answered: (index: number) => void) {
        for (const [index, group] of groups.entries()) {
          for (const recipient of group) {
            await sleep(timing.rcptMs);
            sent.push(recipient);
            replies[index]!.set(recipient, replyTo(recipient));
          }
          answered(index);
        }
      },
      close: done,
      async end() {
        await sleep(1);
        done();
      },
    };
    return { kind: 'open', session: session as unknown as SmtpSession };
  };
  return world;
}

interface Arrival {
  gapMs: number;
  lane: Lane;
  exists: boolean;
  /** With a catch-all probe (a random local part at the same domain). */
  catchAll: boolean;
  timeoutMs: number;
}

const arrival = fc.record({
  gapMs: fc.integer({ min: 0, max: 400 }),
  lane: fc.constantFrom<Lane>('real-time', 'list'),
  exists: fc.boolean(),
  catchAll: fc.boolean(),
  timeoutMs: fc.integer({ min: 300, max: 10_000 }),
});

interface Answer {
  arrival: Arrival;
  address: string;
  random?: string;
  deadline: number;
  at: number;
  outcome: ProbeOutcome;
}

const RESERVE_MS = 1_000;

async function run(arrivals: Arrival[], limits: { maxSessionsPerHost: number; rcptsPerSession: number }, timing: { connectMs: number; rcptMs: number; tokenEveryMs: number }) {
  const world = scriptedWorld(timing);
  const prober = createBatchingProber({
    port: 25,
    helo: 'probe.example',
    from: 'verify@example.com',
    ...limits,
    connect: world.connect,
    throttle: { budget: world.budget },
    reserveMs: RESERVE_MS,
    realTimeIdleMs: 500,
  });
  const answers: Promise<Answer>[] = [];
  let at = 0;
  arrivals.forEach((a, i) => {
    at += a.gapMs;
    answers.push(
      new Promise((resolve) => {
        setTimeout(() => {
          const address = `${a.exists ? 'yes' : 'no'}${i}@d${i % 3}.example`;
          const random = a.catchAll ? `zz${i}random@d${i % 3}.example` : undefined;
          const deadline = Date.now() + a.timeoutMs;
          void prober
            .probe(TARGET, random ? [address, random] : [address], deadline, { lane: a.lane, ...(random ? { catchAllProbe: random } : {}) })
            .then((outcome) => resolve({ arrival: a, address, ...(random ? { random } : {}), deadline, at: Date.now(), outcome }));
        }, at);
      }),
    );
  });
  await vi.runAllTimersAsync();
  return { world, answers: await Promise.all(answers) };
}

describe('the shared session pool, over random arrival schedules on a fake clock', () => {
  it('keeps the place’s limits and every deadline, answers truly, and never lets the time of a probe it asked run out', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(arrival, { minLength: 1, maxLength: 80 }),
        // At least 2 RCPTs a session: one probe's own (the address and its catch-all probe) always fit.
        fc.record({ maxSessionsPerHost: fc.integer({ min: 1, max: 3 }), rcptsPerSession: fc.integer({ min: 2, max: 12 }) }),
        fc.record({ connectMs: fc.integer({ min: 1, max: 300 }), rcptMs: fc.integer({ min: 1, max: 40 }), tokenEveryMs: fc.integer({ min: 0, max: 3_000 }) }),
        async (arrivals, limits, timing) => {
          vi.setSystemTime(0);
          const { world, answers } = await run(arrivals, limits, timing);
          expect(world.maxActive).toBeLessThanOrEqual(limits.maxSessionsPerHost);
          for (const sent of world.sessions) expect(sent.length).toBeLessThanOrEqual(limits.rcptsPerSession);
          // Every token opened a connection.
          expect(world.sessions.length).toBe(world.tokens);
          const asked = new Set(world.sessions.flat());
          for (const answer of answers) {
            expect(answer.at).toBeLessThanOrEqual(answer.deadline);
            const { outcome } = answer;
            // Throttled: about when it could not wait for a connection any longer (at once when it
            // never could; the sessions in progress end first), well before its deadline.
            if (outcome.kind === 'throttled') expect(answer.at).toBeLessThanOrEqual(Math.max(answer.deadline - answer.arrival.timeoutMs, answer.deadline - RESERVE_MS) + RESERVE_MS / 2);
            else if (outcome.kind === 'replies') {
              // True to the server: never an unknown user for a mailbox that exists.
              expect(outcome.replies.get(answer.address)?.class).toBe(answer.arrival.exists ? 'accepted' : 'no-mailbox');
              if (answer.random) expect(outcome.replies.get(answer.random)?.class).toBe('no-mailbox');
            } else {
              // Time ran out only for a probe no session had asked yet: one that got into a
              // session (its token spent on it) is answered.
              expect(outcome.kind).toBe('timeout');
              // (A call of 2 s or more is asked only with 500 ms left: more than any round here takes.)
              if (answer.arrival.timeoutMs >= 2 * RESERVE_MS) expect(asked.has(answer.address)).toBe(false);
            }
          }
          // A domain's catch-all probe went at most once into each session.
          for (const sent of world.sessions) {
            const randoms = sent.filter((r) => r.includes('random')).map((r) => r.split('@')[1]);
            expect(new Set(randoms).size).toBe(randoms.length);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('gives concurrent calls for one address one probe (single flight), each its own replies', async () => {
    const world = scriptedWorld({ connectMs: 20, rcptMs: 10, tokenEveryMs: 0 });
    const prober = singleFlight(createBatchingProber({ port: 25, helo: 'probe.example', from: 'verify@example.com', connect: world.connect, realTimeIdleMs: 0 }));
    // Each call asks for its evidence: the first's record is its own, the others' are read from it.
    const records: ProbeRecord[][] = [[], [], [], [], []];
    const calls = [1, 2, 3, 4, 5].map((i) =>
      prober.probe(TARGET, ['yes@d.example', `zz${i}random@d.example`], 10_000, { lane: 'real-time', catchAllProbe: `zz${i}random@d.example`, record: (r) => records[i - 1]!.push(r) }),
    );
    await vi.runAllTimersAsync();
    const outcomes = await Promise.all(calls);
    expect(records.map((r) => r.map((record) => [record.host, record.egress, record.joined ?? false]))).toEqual([
      [[TARGET.host, 'direct', false]],
      ...[2, 3, 4, 5].map(() => [[TARGET.host, 'direct', true]]),
    ]);
    expect(world.sessions.flat().filter((r) => r === 'yes@d.example')).toHaveLength(1);
    outcomes.forEach((outcome, i) => {
      expect(outcome.kind).toBe('replies');
      if (outcome.kind !== 'replies') return;
      expect(outcome.replies.get('yes@d.example')?.class).toBe('accepted');
      expect(outcome.replies.get(`zz${i + 1}random@d.example`)?.class).toBe('no-mailbox');
    });
  });

  it('serves real-time calls ahead of a list running at full speed', async () => {
    const list: Arrival[] = Array.from({ length: 400 }, () => ({ gapMs: 0, lane: 'list', exists: true, catchAll: false, timeoutMs: 300_000 }));
    // A real-time call every 250 ms while the list's rows wait.
    const calls: Arrival[] = Array.from({ length: 20 }, (_, i) => ({ gapMs: i === 0 ? 10 : 250, lane: 'real-time', exists: i % 2 === 0, catchAll: false, timeoutMs: 10_000 }));
    const { answers } = await run([...list, ...calls], { maxSessionsPerHost: 2, rcptsPerSession: 50 }, { connectMs: 20, rcptMs: 10, tokenEveryMs: 0 });
    const rows = answers.filter((a) => a.arrival.lane === 'list');
    const realTime = answers.filter((a) => a.arrival.lane === 'real-time');
    expect(realTime.every((a) => a.outcome.kind === 'replies')).toBe(true);
    expect(rows.every((a) => a.outcome.kind === 'replies')).toBe(true);
    const lastRow = Math.max(...rows.map((a) => a.at));
    const started = (a: Answer) => a.deadline - a.arrival.timeoutMs;
    // The list takes seconds (400 RCPTs at 10 ms over 2 sessions); each call waits at most for
    // the round in progress (at most 50 RCPTs) and its own RCPT, never behind the list's rows.
    expect(lastRow).toBeGreaterThan(1_500);
    for (const call of realTime) expect(call.at - started(call)).toBeLessThanOrEqual(50 * 10 + 20 + 10);
  });
});
