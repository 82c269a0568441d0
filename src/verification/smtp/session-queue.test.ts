/** The session pool's pure decisions (session-queue.ts), as properties over random queues. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byKeyInTurn, connectDeadline, pickRound, sharedCatchAll, type Lane, type Waiting } from './session-queue.js';

const waitingProbe = fc.record({
  lane: fc.constantFrom<Lane>('real-time', 'list'),
  recipients: fc.array(fc.constantFrom('a@x.com', 'b@y.com', 'r@x.com'), { minLength: 1, maxLength: 3 }),
  deadline: fc.integer({ min: 0, max: 20_000 }),
  done: fc.boolean(),
  minLeftMs: fc.integer({ min: 0, max: 1_000 }),
});

describe('pickRound', () => {
  it('takes real-time probes first, within the room and the session’s life, and loses none', () => {
    fc.assert(
      fc.property(
        fc.array(waitingProbe, { maxLength: 40 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 5_000 }),
        (waiting, room, holdUntil, fresh, now) => {
          const { taken, kept } = pickRound<Waiting>(waiting, room, holdUntil, fresh, now);
          const sent = taken.reduce((n, probe) => n + probe.recipients.length, 0);
          // Room: never more RCPTs than left, except the one probe a fresh session always takes.
          if (!(fresh && taken.length === 1)) expect(sent).toBeLessThanOrEqual(room);
          // Every open probe is either taken or kept; answered ones are dropped.
          expect(new Set([...taken, ...kept])).toEqual(new Set(waiting.filter((probe) => !probe.done)));
          const askable = (probe: Waiting) => probe.deadline - (probe.minLeftMs ?? 0) >= now;
          for (const probe of taken) expect(askable(probe)).toBe(true);
          // Real-time first: no list probe is taken while a real-time probe that fitted was left.
          const firstList = taken.findIndex((probe) => probe.lane === 'list');
          if (firstList >= 0) expect(taken.slice(firstList).every((probe) => probe.lane === 'list')).toBe(true);
          if (taken.some((probe) => probe.lane === 'list')) {
            const left = room - sent;
            for (const probe of kept)
              if (probe.lane === 'real-time' && askable(probe) && probe.deadline <= holdUntil)
                expect(probe.recipients.length).toBeGreaterThan(left);
          }
          // What waits keeps its arrival order.
          expect(kept).toEqual(waiting.filter((probe) => kept.includes(probe)));
        },
      ),
    );
  });

  it('waits for a connection only while a probe could still use one', () => {
    expect(connectDeadline([{ deadline: 10_000 }, { deadline: 4_000 }], 2_000)).toBe(8_000);
  });
});

describe('sharedCatchAll', () => {
  it('sends one catch-all probe per domain and session, and every other recipient', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ domain: fc.constantFrom('x.com', 'y.com'), random: fc.boolean(), id: fc.nat(1000) }), { maxLength: 20 }),
        fc.subarray(['x.com', 'y.com']),
        (probes, before) => {
          const shaped = probes.map((p, i) => ({
            recipients: p.random ? [`u${i}@${p.domain}`, `zz${p.id}r${i}@${p.domain}`] : [`u${i}@${p.domain}`],
            ...(p.random ? { catchAllProbe: `zz${p.id}r${i}@${p.domain}` } : {}),
          }));
          const { send, askedNow } = sharedCatchAll(shaped, new Set(before));
          const sent = send.flat();
          for (const domain of ['x.com', 'y.com']) {
            const randoms = sent.filter((r) => r.startsWith('zz') && r.endsWith(`@${domain}`));
            const wanted = shaped.some((p) => p.catchAllProbe?.endsWith(`@${domain}`)) && !before.includes(domain);
            expect(randoms).toHaveLength(wanted ? 1 : 0);
            expect(askedNow.has(domain)).toBe(wanted);
          }
          // Each probe's own address always goes.
          shaped.forEach((p, i) => expect(send[i]).toContain(p.recipients[0]));
        },
      ),
    );
  });
});

describe('the per-key share', () => {
  it('while keys wait in one lane, no key takes more than one RCPT beyond any other key left waiting (one-recipient probes)', () => {
    const probe = fc.record({ key: fc.integer({ min: 1, max: 4 }), lane: fc.constantFrom<Lane>('real-time', 'list') });
    fc.assert(
      fc.property(fc.array(probe, { maxLength: 60 }), fc.integer({ min: 1, max: 40 }), (arrivals, room) => {
        const waiting: Waiting[] = arrivals.map(({ key, lane }, i) => ({
          key,
          lane,
          recipients: [`u${i}@x.com`],
          deadline: 10_000,
          done: false,
        }));
        const { taken, kept } = pickRound(waiting, room, 20_000, false, 0);
        for (const lane of ['real-time', 'list'] as const) {
          const count = (probes: Waiting[], key: number) => probes.filter((p) => p.lane === lane && p.key === key).length;
          for (const starved of new Set(kept.filter((p) => p.lane === lane).map((p) => p.key!))) {
            for (const other of new Set(taken.filter((p) => p.lane === lane).map((p) => p.key!))) {
              expect(count(taken, other)).toBeLessThanOrEqual(count(taken, starved) + 1);
            }
          }
        }
        // Each key's own probes keep their arrival order.
        for (const key of [1, 2, 3, 4]) {
          const order = taken.filter((p) => p.key === key && p.lane === 'list').map((p) => waiting.indexOf(p));
          expect(order).toEqual([...order].sort((a, b) => a - b));
        }
      }),
    );
  });

  it('a key alone takes the whole round; without keys the order is arrival order', () => {
    const alone = Array.from({ length: 5 }, (_, i) => ({ key: 7, n: i }));
    expect(byKeyInTurn(alone).map((p) => p.n)).toEqual([0, 1, 2, 3, 4]);
    const mixed = [
      { key: 1, n: 0 },
      { key: 1, n: 1 },
      { key: 1, n: 2 },
      { key: 2, n: 3 },
      { key: 1, n: 4 },
      { key: 3, n: 5 },
    ];
    expect(byKeyInTurn(mixed).map((p) => p.n)).toEqual([0, 3, 5, 1, 2, 4]);
    expect(byKeyInTurn([{ n: 0 }, { n: 1 }] as { key?: number; n: number }[]).map((p) => p.n)).toEqual([0, 1]);
  });
});
