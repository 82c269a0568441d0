import { describe, expect, it } from 'vitest';
import { CONNECTED, decideEgress, egressHint, proxyHint, type BannerCheck, type BannerOutcome } from './decide-egress.js';

const NOW = 1_700_000_000_000;
const check = (outcome: BannerOutcome, text?: string, host = 'mx.canary.com', address = '203.0.113.9'): BannerCheck => ({
  host,
  address,
  outcome,
  ...(text !== undefined ? { text } : {}),
});
const CLOSED: BannerOutcome[] = ['refused', 'connect-timeout', 'no-banner', 'unreachable'];

describe('decideEgress', () => {
  it('is unknown when no canary MX host could be tried, and points at the resolver', () => {
    expect(decideEgress([], 25, NOW)).toEqual({
      state: 'unknown',
      evidence: ['no canary MX host could be resolved to try'],
      hint: "fix the resolver first: the canaries' MX hosts are found through it",
      checkedAt: NOW,
    });
  });

  it('is ok when one canary sent a banner, whatever the others did', () => {
    for (const others of [[], CLOSED]) {
      const health = decideEgress([...others.map((o) => check(o)), check('banner')], 25, NOW);
      expect(health.state).toBe('ok');
      expect(health.hint).toBeUndefined();
      expect(health.checkedAt).toBe(NOW);
    }
  });

  it('is ok on a refusing banner: the way out is open even if the canary dislikes us', () => {
    const health = decideEgress([check('refused'), check('banner-reject', '554 5.7.1 go away')], 25, NOW);
    expect(health.state).toBe('ok');
  });

  it('fails when every canary refused, timed out, stayed silent or was unreachable', () => {
    for (const outcome of CLOSED) {
      expect(decideEgress([check(outcome)], 25, NOW).state).toBe('failed');
    }
    const all = decideEgress(
      CLOSED.map((o) => check(o)),
      25,
      NOW,
    );
    expect(all.state).toBe('failed');
    expect(all.hint).toBe(egressHint(25));
    expect(all.checkedAt).toBe(NOW);
  });

  it('names the configured port in the hint and the evidence', () => {
    const health = decideEgress([check('refused')], 2525, NOW);
    expect(health.hint).toMatch(/^outbound TCP port 2525 is blocked from this host/);
    expect(health.hint).toMatch(/MAILSURE_VERIFY_DEPTH=domain/);
    expect(health.evidence).toEqual(['mx.canary.com [203.0.113.9]:2525: connection refused']);
    expect(egressHint(25)).toMatch(/^outbound TCP port 25 is blocked/);
  });

  it("through a proxy: names it in the evidence, blames the proxy when it failed, the proxy host's port 25 otherwise", () => {
    const via = 'socks5://10.0.0.5:1080';
    const down = decideEgress([{ ...check('proxy-failed', `${via}: ECONNREFUSED: connect ECONNREFUSED 10.0.0.5:1080`), via }], 25, NOW);
    expect(down).toEqual({
      state: 'failed',
      evidence: [`mx.canary.com [203.0.113.9]:25 via ${via}: the proxy failed: ${via}: ECONNREFUSED: connect ECONNREFUSED 10.0.0.5:1080`],
      hint: 'the SMTP proxy (MAILSURE_SMTP_PROXY) is down or refuses the prober: check that it runs, its address and credentials, and that its rules allow connections to port 25; until then verdicts stop at what DNS proves',
      checkedAt: NOW,
    });
    expect(proxyHint(25)).toBe(down.hint);
    const blocked = decideEgress([{ ...check('refused'), via }], 25, NOW);
    expect(blocked.state).toBe('failed');
    expect(blocked.evidence).toEqual([`mx.canary.com [203.0.113.9]:25 via ${via}: connection refused`]);
    expect(blocked.hint).toBe(
      `outbound TCP port 25 is blocked from the SMTP proxy's host (${via}): open it there, choose another proxy (MAILSURE_SMTP_PROXY), or set MAILSURE_VERIFY_DEPTH=domain; until then verdicts stop at what DNS proves`,
    );
    expect(
      decideEgress(
        [
          { ...check('proxy-failed', 'x'), via },
          { ...check('banner'), via },
        ],
        25,
        NOW,
      ).state,
    ).toBe('ok');
  });

  it('describes each outcome in one exact line, host and address first', () => {
    const lines: [BannerCheck, string][] = [
      [check('banner', '220 mx.google.com ESMTP'), 'banner received'],
      [check('banner-reject', '554 5.7.1 no thanks'), 'connected, banner refused us: 554 5.7.1 no thanks'],
      [check('banner-reject'), 'connected, banner refused us:'],
      [check('no-banner'), 'connected, but no banner came (filtered or intercepted)'],
      [check('refused'), 'connection refused'],
      [check('unreachable'), 'no route to host'],
      [check('connect-timeout'), 'connection timed out (filtered)'],
    ];
    for (const [c, text] of lines) {
      expect(decideEgress([c], 25, NOW).evidence).toEqual([`mx.canary.com [203.0.113.9]:25: ${text}`]);
    }
  });

  it('keeps one evidence line per check, in order', () => {
    const health = decideEgress(
      [check('refused', undefined, 'a.mx.com', '198.51.100.1'), check('banner', undefined, 'b.mx.com', '2001:db8::25')],
      25,
      NOW,
    );
    expect(health.evidence).toEqual(['a.mx.com [198.51.100.1]:25: connection refused', 'b.mx.com [2001:db8::25]:25: banner received']);
  });

  it('counts only banner and banner-reject as connected', () => {
    expect([...CONNECTED].sort()).toEqual(['banner', 'banner-reject']);
  });
});
