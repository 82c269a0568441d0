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
import { createEgressPool } from './egress-pool.js';
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
    async take(_key: BudgetKey, _perWindow: number, deadline: number, wanted?: () => boolean, onWait?: (nextAt: number) => void) {
      for (let waited = false; ; waited = true) {
        if (waited && wanted && !wanted()) return false;
        if (Date.now() >= nextToken) {
          nextToken = Date.now() + timing.tokenEveryMs;
          world.tokens++;
          return true;
        }
        if (nextToken >= deadline) return false;
        onWait?.(nextToken);
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
      async askAll(
        groups: readonly (readonly string[])[],
        replies: readonly Map<string, RecipientReply>[],
        answered: (index: number) => void,
      ) {
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

/** A real-time call for an unknown user, `gapMs` after the one before. */
const arr = (gapMs: number, timeoutMs: number, catchAll: boolean): Arrival => ({
  gapMs,
  lane: 'real-time',
  exists: false,
  catchAll,
  timeoutMs,
});

async function run(
  arrivals: Arrival[],
  limits: { maxSessionsPerHost: number; rcptsPerSession: number },
  timing: { connectMs: number; rcptMs: number; tokenEveryMs: number },
) {
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
        fc.record({
          connectMs: fc.integer({ min: 1, max: 300 }),
          rcptMs: fc.integer({ min: 1, max: 40 }),
          tokenEveryMs: fc.integer({ min: 0, max: 3_000 }),
        }),
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
            if (outcome.kind === 'throttled')
              expect(answer.at).toBeLessThanOrEqual(
                Math.max(answer.deadline - answer.arrival.timeoutMs, answer.deadline - RESERVE_MS) + RESERVE_MS / 2,
              );
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
      {
        numRuns: 300,
        // Schedules that once broke the throttled bound: a session with its token but no room
        // (or no time left to connect) for a probe past its last moment to connect held it to
        // its deadline instead of answering it at once.
        examples: [
          [
            [arr(0, 1001, false), arr(0, 503, true), arr(0, 1251, true)],
            { maxSessionsPerHost: 1, rcptsPerSession: 2 },
            { connectMs: 247, rcptMs: 2, tokenEveryMs: 0 },
          ],
          [
            [arr(0, 1001, false), arr(0, 502, true), arr(0, 1225, false)],
            { maxSessionsPerHost: 2, rcptsPerSession: 2 },
            { connectMs: 277, rcptMs: 1, tokenEveryMs: 224 },
          ],
          [
            [arr(0, 1001, false), arr(0, 450, true), arr(0, 1505, true), arr(171, 503, false)],
            { maxSessionsPerHost: 2, rcptsPerSession: 2 },
            { connectMs: 169, rcptMs: 1, tokenEveryMs: 168 },
          ],
        ],
      },
    );
  });

  it('a call queued behind a budget wait is answered throttled as soon as no token can come in time, not at its last moment', async () => {
    const world = scriptedWorld({ connectMs: 10, rcptMs: 100, tokenEveryMs: 10_000 });
    const prober = createBatchingProber({
      port: 25,
      helo: 'probe.example',
      from: 'verify@example.com',
      maxSessionsPerHost: 2,
      rcptsPerSession: 1,
      connect: world.connect,
      throttle: { budget: world.budget },
      reserveMs: RESERVE_MS,
      realTimeIdleMs: 0,
    });
    const at: Record<string, number> = {};
    // Three calls at once; the third has a longer timeout, so the second session waits for the
    // next token (at 10 s), which comes after the second call's last moment to connect (9 s).
    const calls = (
      [
        ['yes1@d.example', 10_000],
        ['yes2@d.example', 10_000],
        ['yes3@d.example', 20_000],
      ] as const
    ).map(([address, deadline]) =>
      prober.probe(TARGET, [address], deadline, { lane: 'real-time' }).then((outcome) => ((at[address] = Date.now()), outcome)),
    );
    await vi.runAllTimersAsync();
    const [first, second, third] = await Promise.all(calls);
    expect(first!.kind).toBe('replies');
    expect(third!.kind).toBe('replies');
    // Answered when the first's session ends (nothing else could serve it in time), not at 9 s.
    expect(second!.kind).toBe('throttled');
    expect(at['yes2@d.example']).toBeLessThanOrEqual(at['yes1@d.example']! + 10);
    expect(world.tokens).toBe(2);
  });

  it('gives concurrent calls for one address one probe (single flight), each its own replies', async () => {
    const world = scriptedWorld({ connectMs: 20, rcptMs: 10, tokenEveryMs: 0 });
    const prober = singleFlight(
      createBatchingProber({ port: 25, helo: 'probe.example', from: 'verify@example.com', connect: world.connect, realTimeIdleMs: 0 }),
    );
    // Each call asks for its evidence: the first's record is its own, the others' are read from it.
    const records: ProbeRecord[][] = [[], [], [], [], []];
    const calls = [1, 2, 3, 4, 5].map((i) =>
      prober.probe(TARGET, ['yes@d.example', `zz${i}random@d.example`], 10_000, {
        lane: 'real-time',
        catchAllProbe: `zz${i}random@d.example`,
        record: (r) => records[i - 1]!.push(r),
      }),
    );
    await vi.runAllTimersAsync();
    const outcomes = await Promise.all(calls);
    expect(records.map((r) => r.map((record) => [record.host, record.egress, record.joined ?? false]))).toEqual([
      [[TARGET.host, 'egress-1', false]],
      ...[2, 3, 4, 5].map(() => [[TARGET.host, 'egress-1', true]]),
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
    const list: Arrival[] = Array.from({ length: 400 }, () => ({
      gapMs: 0,
      lane: 'list',
      exists: true,
      catchAll: false,
      timeoutMs: 300_000,
    }));
    // A real-time call every 250 ms while the list's rows wait.
    const calls: Arrival[] = Array.from({ length: 20 }, (_, i) => ({
      gapMs: i === 0 ? 10 : 250,
      lane: 'real-time',
      exists: i % 2 === 0,
      catchAll: false,
      timeoutMs: 10_000,
    }));
    const { answers } = await run(
      [...list, ...calls],
      { maxSessionsPerHost: 2, rcptsPerSession: 50 },
      { connectMs: 20, rcptMs: 10, tokenEveryMs: 0 },
    );
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

describe('the shared session pool over several egresses, on a fake clock', () => {
  /** A scripted world that tells egresses apart by the source address each connection is bound to, with a budget per egress. */
  function egressWorld(egresses: number, timing: { connectMs: number; rcptMs: number; tokenEveryMs: number }) {
    const base = scriptedWorld(timing);
    const tokens = new Map<string, number[]>();
    const nextToken = new Map<string, number>();
    const active = new Map<string, number>();
    const maxActive = new Map<string, number>();
    const budget: ConnectionBudget = {
      async take(key, _perWindow, deadline, wanted, onWait) {
        for (let waited = false; ; waited = true) {
          if (waited && wanted && !wanted()) return false;
          const next = nextToken.get(key.egress) ?? 0;
          if (Date.now() >= next) {
            nextToken.set(key.egress, Date.now() + timing.tokenEveryMs);
            tokens.set(key.egress, [...(tokens.get(key.egress) ?? []), Date.now()]);
            return true;
          }
          if (next >= deadline) return false;
          onWait?.(next);
          await sleep(next - Date.now());
        }
      },
      slowDown: () => Promise.resolve(),
      coolingDown: () => Promise.resolve(false),
    };
    const connect: typeof openSmtpSession = async (options) => {
      const egress = options.localAddress ?? 'none';
      const opened = await base.connect(options);
      if (opened.kind !== 'open') return opened;
      active.set(egress, (active.get(egress) ?? 0) + 1);
      maxActive.set(egress, Math.max(maxActive.get(egress) ?? 0, active.get(egress)!));
      const { session } = opened;
      let open = true;
      const done = () => {
        if (open) active.set(egress, active.get(egress)! - 1);
        open = false;
      };
      const close = session.close.bind(session);
      const end = session.end.bind(session);
      Object.assign(session, { close: () => (done(), close()), end: async () => (await end(), done()) });
      return opened;
    };
    const pool = createEgressPool(
      Array.from({ length: egresses }, (_, i) => ({ label: `egress-${i + 1}`, helo: 'probe.example', localAddress: `10.0.0.${i + 1}` })),
      { providerOf: (host) => (host.endsWith('google.com') ? 'google' : undefined) },
    );
    return { base, budget, connect, pool, tokens, maxActive };
  }

  it('never more sessions at once per egress than the place allows, each egress’s tokens at its own pace, every answer true and in time', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(arrival, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 4 }),
        fc.record({ maxSessionsPerHost: fc.integer({ min: 1, max: 2 }), rcptsPerSession: fc.integer({ min: 2, max: 8 }) }),
        fc.record({
          connectMs: fc.integer({ min: 1, max: 200 }),
          rcptMs: fc.integer({ min: 1, max: 30 }),
          tokenEveryMs: fc.integer({ min: 0, max: 3_000 }),
        }),
        async (arrivals, egresses, limits, timing) => {
          vi.setSystemTime(0);
          const world = egressWorld(egresses, timing);
          const prober = createBatchingProber({
            port: 25,
            helo: 'probe.example',
            from: 'verify@example.com',
            ...limits,
            connect: world.connect,
            throttle: { budget: world.budget },
            pool: world.pool,
            egress: world.pool.chooser,
            reserveMs: RESERVE_MS,
            realTimeIdleMs: 500,
          });
          const answers: Promise<{ deadline: number; at: number; exists: boolean; address: string; outcome: ProbeOutcome }>[] = [];
          let at = 0;
          arrivals.forEach((a, i) => {
            at += a.gapMs;
            answers.push(
              new Promise((resolve) => {
                setTimeout(() => {
                  const address = `${a.exists ? 'yes' : 'no'}${i}@d${i % 3}.example`;
                  const deadline = Date.now() + a.timeoutMs;
                  void prober
                    .probe(TARGET, [address], deadline, { lane: a.lane, key: i % 3 })
                    .then((outcome) => resolve({ deadline, at: Date.now(), exists: a.exists, address, outcome }));
                }, at);
              }),
            );
          });
          await vi.runAllTimersAsync();
          const done = await Promise.all(answers);
          for (const [, most] of world.maxActive) expect(most).toBeLessThanOrEqual(limits.maxSessionsPerHost);
          for (const [, taken] of world.tokens)
            for (let k = 1; k < taken.length; k++) expect(taken[k]! - taken[k - 1]!).toBeGreaterThanOrEqual(timing.tokenEveryMs);
          for (const answer of done) {
            expect(answer.at).toBeLessThanOrEqual(answer.deadline);
            if (answer.outcome.kind === 'replies')
              expect(answer.outcome.replies.get(answer.address)?.class).toBe(answer.exists ? 'accepted' : 'no-mailbox');
            else expect(['timeout', 'throttled']).toContain(answer.outcome.kind);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a flood from one key does not hold back another key’s calls: they share each round', async () => {
    const world = egressWorld(1, { connectMs: 10, rcptMs: 10, tokenEveryMs: 0 });
    const prober = createBatchingProber({
      port: 25,
      helo: 'probe.example',
      from: 'verify@example.com',
      maxSessionsPerHost: 1,
      rcptsPerSession: 10,
      connect: world.connect,
      pool: world.pool,
      egress: world.pool.chooser,
      realTimeIdleMs: 0,
    });
    const answered: { key: number; at: number }[] = [];
    const call = (key: number, i: number) =>
      prober
        .probe(TARGET, [`yes${key}-${i}@d.example`], 20_000, { lane: 'real-time', key })
        .then(() => answered.push({ key, at: Date.now() }));
    // Key 1 sends 60 calls at once, key 2 five right after: with arrival order alone key 2 would wait for six sessions.
    const calls = [...Array.from({ length: 60 }, (_, i) => call(1, i)), ...Array.from({ length: 5 }, (_, i) => call(2, i))];
    await vi.runAllTimersAsync();
    await Promise.all(calls);
    const lastOfKey2 = Math.max(...answered.filter((a) => a.key === 2).map((a) => a.at));
    const key1Before = answered.filter((a) => a.key === 1 && a.at <= lastOfKey2).length;
    // Key 2's five went in the first rounds beside key 1's, not after its sixty.
    expect(key1Before).toBeLessThanOrEqual(15);
    expect(world.base.sessions[0]!.filter((r) => r.startsWith('yes2')).length).toBe(5);
  });

  it('answers probes whose deadline passed before their timers ran, instead of starting sessions for them without end', async () => {
    // A connection that fails only after the clock has jumped past the probe's deadline, its
    // timer not yet run (a loaded machine): the session ends with the probe still waiting.
    let fail: (() => void) | undefined;
    const connect = (() =>
      new Promise((resolve) => {
        fail = () => resolve({ kind: 'refused', detail: 'connection refused' });
      })) as unknown as typeof openSmtpSession;
    const prober = createBatchingProber({ port: 25, helo: 'probe.example', from: 'verify@example.com', connect, maxSessionsPerHost: 1 });
    const answer = prober.probe({ host: 'mx.example.net', addresses: ['192.0.2.1'] }, ['a@example.net'], 1_000, { lane: 'real-time' });
    await vi.advanceTimersByTimeAsync(0);
    vi.setSystemTime(5_000);
    fail!();
    // Not the timers: the prober's own turns answer it.
    for (let turn = 0; turn < 20; turn++) await Promise.resolve();
    const outcome = await Promise.race([answer, Promise.resolve('still waiting' as const)]);
    expect(outcome).toEqual({ kind: 'timeout', detail: 'no free session slot before the deadline' });
  });
});
