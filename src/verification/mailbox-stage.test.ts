/**
 * The mailbox stage answers a decisive reply as soon as it has it: a tarpit that holds the
 * catch-all probe's RCPT must not turn an unknown user's 550 into `timeout` (issue 28, measured
 * against a real tarpitting MTA: 550 for the address after 20 s, the random one's after 40 s, a
 * call with timeout=30 answered 5). The real MTAs' version is in test/conformance/.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../core/clock.js';
import { closeScripted, scripted } from '../../test/helpers/scripted-smtp.js';
import type { CatchAllFact } from './decide-mailbox.js';
import { createMemoryFactCache } from './fact-cache.js';
import { runMailboxStage } from './mailbox-stage.js';
import { createBatchingProber } from './smtp/batch-prober.js';
import { createSmtpProber, type SmtpProber } from './smtp/prober.js';

afterEach(closeScripted);

const target = {
  recipient: 'nobody@tarpit.example',
  asciiDomain: 'tarpit.example',
  hosts: [{ host: 'mx.tarpit.example', addresses: ['127.0.0.1'] }],
};
const stage = (prober: SmtpProber) => ({
  prober,
  catchAll: createMemoryFactCache<CatchAllFact>(systemClock),
  greylistRetryMs: 0,
  randomLocalPart: () => 'zq7random',
});

describe('the mailbox stage and a decisive reply', () => {
  // The session pool that real-time calls and lists share, and a prober of its own sessions.
  const probers = {
    'the shared session pool': (port: number) =>
      createBatchingProber({ port, helo: 'probe.mailsure.com', from: 'verify@mailsure.com', idleMs: 0, realTimeIdleMs: 0 }),
    'a session of its own': (port: number) => createSmtpProber({ port, helo: 'probe.mailsure.com', from: 'verify@mailsure.com' }),
  };
  it.each(Object.entries(probers))(
    'answers an unknown user at once while the catch-all probe is still held by a tarpit (%s)',
    async (name, make) => {
      let closed = false;
      const server = await scripted((command, reply, socket) => {
        socket.once('close', () => (closed = true));
        if (/^MAIL FROM/i.test(command)) reply('250 OK');
        else if (command.includes('nobody@')) reply('550 Unrouteable address');
        // The random local part's RCPT is never answered (a tarpit longer than any deadline).
      });
      const prober = make(server.port);
      // A deadline far away: without the fix this call waits for it and answers 5.
      const result = await runMailboxStage(stage(prober), target, Date.now() + 600_000);
      expect(result).toEqual({ code: 400, rule: 'mailbox.unknown-user' });
      // A session of its own is closed; the shared pool's goes on for other calls until its deadline.
      if (name === 'a session of its own') await expect.poll(() => closed).toBe(true);
    },
  );

  it('keeps a decisive reply received before the deadline ran out mid-session', async () => {
    const prober: SmtpProber = {
      probe: async (_host, recipients) => ({
        kind: 'timeout',
        detail: 'deadline reached',
        partial: new Map([
          [recipients[0]!, { class: 'no-mailbox', greylisted: false, code: 550, text: 'Unrouteable address', stage: 'rcpt' }],
        ]),
      }),
    };
    expect(await runMailboxStage(stage(prober), target, Date.now() + 60_000)).toEqual({ code: 400, rule: 'mailbox.unknown-user' });
  });

  it('still answers timeout when what arrived before the deadline proves nothing', async () => {
    const prober: SmtpProber = {
      probe: async (_host, recipients) => ({
        kind: 'timeout',
        detail: 'deadline reached',
        partial: new Map([[recipients[0]!, { class: 'accepted', greylisted: false, code: 250, text: 'Accepted', stage: 'rcpt' }]]),
      }),
    };
    expect(await runMailboxStage(stage(prober), target, Date.now() + 60_000)).toEqual({ code: 5, rule: 'mailbox.timeout' });
  });

  it('tells each probe the key it verifies for (a shared session takes keys in turn), and no key when it has none', async () => {
    const keys: (number | undefined)[] = [];
    const prober: SmtpProber = {
      probe: async (_host, recipients, _deadline, options) => {
        keys.push(options?.key);
        return {
          kind: 'timeout',
          detail: 'deadline reached',
          partial: new Map([[recipients[0]!, { class: 'no-mailbox', greylisted: false, code: 550, text: 'No such user', stage: 'rcpt' }]]),
        };
      },
    };
    await runMailboxStage(stage(prober), { ...target, key: 7 }, Date.now() + 60_000);
    await runMailboxStage(stage(prober), target, Date.now() + 60_000);
    expect(keys).toEqual([7, undefined]);
  });
});
