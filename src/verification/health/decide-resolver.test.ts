import { describe, expect, it } from 'vitest';
import type { MailRoute } from '../dns/mail-route.js';
import { decideResolver } from './decide-resolver.js';

const NOW = 1_700_000_000_000;
const mx = (...names: string[]): MailRoute => ({ kind: 'mx', hosts: names.map((name, i) => ({ name, priority: (i + 1) * 10 })) });
const NX: MailRoute = { kind: 'nxdomain' };
const SILENT: MailRoute = { kind: 'unavailable', reason: 'ETIMEOUT' };

function decide(canaries: MailRoute[], random: MailRoute = NX) {
  return decideResolver(
    {
      canaries: canaries.map((route, i) => ({ domain: `canary${i}.com`, route })),
      random: { domain: 'mailsure-nx-random.com', route: random },
    },
    NOW,
  );
}

describe('decideResolver', () => {
  it('trusts a resolver that finds every canary and denies the random name', () => {
    const health = decide([mx('mx1.canary0.com'), mx('mx1.canary1.com')]);
    expect(health).toEqual({
      state: 'ok',
      evidence: [
        'canary canary0.com: MX mx1.canary0.com',
        'canary canary1.com: MX mx1.canary1.com',
        'random name mailsure-nx-random.com: NXDOMAIN',
      ],
      checkedAt: NOW,
    });
    expect(health.hint).toBeUndefined();
  });

  it('fails a resolver that calls every canary nonexistent, with a hint about denying', () => {
    const health = decide([NX, NX, NX]);
    expect(health.state).toBe('failed');
    expect(health.hint).toMatch(/^the resolver denies domains that exist; fix the resolver: set MAILSURE_DNS_SERVERS/);
    expect(health.checkedAt).toBe(NOW);
  });

  it('calls denial any mix of wrong and missing answers when no canary got an MX', () => {
    const implicit: MailRoute = { kind: 'implicit', hosts: [{ name: 'canary0.com', priority: 0 }] };
    for (const canaries of [[NX, SILENT], [{ kind: 'null-mx' } as MailRoute], [{ kind: 'no-mail' } as MailRoute, NX], [implicit]]) {
      const health = decide(canaries);
      expect(health.state).toBe('failed');
      expect(health.hint).toMatch(/denies domains that exist/);
    }
  });

  it('fails a resolver that answers the random name, even when the canaries are fine', () => {
    for (const random of [
      mx('mx.hijack.example'),
      { kind: 'implicit', hosts: [{ name: 'mailsure-nx-random.com', priority: 0 }] } as MailRoute,
    ]) {
      const health = decide([mx('mx1.canary0.com'), mx('mx1.canary1.com')], random);
      expect(health.state).toBe('failed');
      expect(health.hint).toMatch(/^the resolver answers names that do not exist \(NXDOMAIN hijacking\); fix the resolver/);
      expect(health.evidence.at(-1)).toMatch(/^random name mailsure-nx-random\.com: .* \(it must not exist\)$/);
    }
  });

  it('names the hijacking first even when the canaries are silent too', () => {
    expect(decide([SILENT, SILENT], mx('mx.hijack.example')).hint).toMatch(/NXDOMAIN hijacking/);
  });

  it('fails a resolver that answers no canary at all, with a hint to check port 53', () => {
    const health = decide([SILENT, SILENT]);
    expect(health.state).toBe('failed');
    expect(health.hint).toBe(
      'the resolver does not answer: check MAILSURE_DNS_SERVERS (or the system resolver) and that UDP/TCP port 53 to it is open',
    );
  });

  it('degrades when some canaries are answered and others are denied or silent', () => {
    for (const other of [NX, SILENT, { kind: 'no-mail' } as MailRoute, { kind: 'null-mx' } as MailRoute]) {
      const health = decide([mx('mx1.canary0.com'), other]);
      expect(health.state).toBe('degraded');
      expect(health.hint).toMatch(
        /^some checks got no or wrong answers; negative DNS verdicts are held back until they pass; fix the resolver/,
      );
    }
  });

  it('degrades when only the random name goes unanswered', () => {
    const health = decide([mx('mx1.canary0.com')], SILENT);
    expect(health.state).toBe('degraded');
    expect(health.evidence).toEqual(['canary canary0.com: MX mx1.canary0.com', 'random name mailsure-nx-random.com: no answer (ETIMEOUT)']);
  });

  it('does not count a random name answered with null MX or no records as hijacking', () => {
    expect(decide([mx('mx1.canary0.com')], { kind: 'null-mx' }).state).toBe('ok');
    expect(decide([mx('mx1.canary0.com')], { kind: 'no-mail' }).state).toBe('ok');
  });

  it('is unknown without canaries, and says which setting is missing', () => {
    expect(decide([])).toEqual({
      state: 'unknown',
      evidence: ['random name mailsure-nx-random.com: NXDOMAIN', 'no canary domains configured (MAILSURE_CANARY_DOMAINS)'],
      checkedAt: NOW,
    });
  });

  it('still fails a hijacking resolver and degrades a silent one without canaries', () => {
    expect(decide([], mx('mx.hijack.example')).state).toBe('failed');
    expect(decide([], SILENT).state).toBe('degraded');
  });

  it('describes each kind of answer in one exact line', () => {
    const routes: [MailRoute, string][] = [
      [mx('a.mx.com', 'b.mx.com', 'c.mx.com'), 'MX a.mx.com, b.mx.com'],
      [mx('only.mx.com'), 'MX only.mx.com'],
      [{ kind: 'implicit', hosts: [{ name: 'canary0.com', priority: 0 }] }, 'no MX, but an address record'],
      [NX, 'NXDOMAIN'],
      [{ kind: 'null-mx' }, 'null MX'],
      [{ kind: 'no-mail' }, 'no MX and no address'],
      [{ kind: 'unavailable', reason: 'ESERVFAIL' }, 'no answer (ESERVFAIL)'],
    ];
    for (const [route, text] of routes) {
      expect(decide([route]).evidence[0]).toBe(`canary canary0.com: ${text}`);
    }
    expect(decide([mx('x.com')], mx('mx.hijack.example')).evidence[1]).toBe(
      'random name mailsure-nx-random.com: MX mx.hijack.example (it must not exist)',
    );
    expect(decide([mx('x.com')], { kind: 'null-mx' }).evidence[1]).toBe('random name mailsure-nx-random.com: null MX');
  });

  it('stamps every decision with the time passed in', () => {
    for (const canaries of [[], [NX], [SILENT], [mx('a.com'), NX], [mx('a.com')]]) {
      expect(
        decideResolver({ canaries: canaries.map((route) => ({ domain: 'c.com', route })), random: { domain: 'r.com', route: NX } }, 42)
          .checkedAt,
      ).toBe(42);
    }
  });
});
