import { describe, expect, it } from 'vitest';
import { decideHostAddresses, decideMailRoute, decideTrusted, restsOnNegativeDns } from './decide-domain.js';
import {
  decideEgressBlocked,
  decideMailbox,
  decideProbeFailure,
  decideRefusalsTrusted,
  decideRemembered,
  decideShared,
} from './decide-mailbox.js';
import { RULES, type Decision } from './rules.js';

describe('decideMailRoute', () => {
  it('proves only what DNS answered', () => {
    expect(decideMailRoute({ kind: 'nxdomain' })).toEqual({ rule: 'dns.nxdomain', code: 310 });
    expect(decideMailRoute({ kind: 'null-mx' })).toEqual({ rule: 'dns.null-mx', code: 325 });
    expect(decideMailRoute({ kind: 'no-mail' })).toEqual({ rule: 'dns.no-mail-route', code: 325 });
    expect(decideMailRoute({ kind: 'unavailable', reason: 'ESERVFAIL' })).toEqual({ rule: 'dns.unanswered', code: 5 });
    expect(decideMailRoute({ kind: 'mx', hosts: [{ name: 'mx.a.com', priority: 10 }] })).toEqual({
      hosts: [{ name: 'mx.a.com', priority: 10 }],
    });
  });

  it('condemns a domain whose hosts are all absent or private, but not one whose lookups went unanswered', () => {
    expect(decideHostAddresses({ reachable: [], onlyPrivate: true, unanswered: false })).toEqual({
      rule: 'dns.no-public-mx-address',
      code: 325,
    });
    expect(decideHostAddresses({ reachable: [], onlyPrivate: false, unanswered: true })).toEqual({ rule: 'dns.unanswered', code: 5 });
    expect(
      decideHostAddresses({ reachable: [{ host: 'mx', addresses: ['8.8.8.8'] }], onlyPrivate: true, unanswered: true }),
    ).toBeUndefined();
  });
});

describe('decideMailbox', () => {
  it('calls an address invalid only on mailbox-class proof', () => {
    expect(decideMailbox({ address: 'no-mailbox' }, 'unknown')).toEqual({ code: 400 });
    expect(decideMailbox({ address: 'mailbox-full' }, 'unknown')).toEqual({ code: 410 });
    for (const cls of ['policy', 'temporary', 'rejected-other'] as const) {
      expect(decideMailbox({ address: cls, random: 'no-mailbox' }, 'unknown').code).toBe(20);
    }
  });

  it('tells a deliverable mailbox from a catch-all domain by the random probe', () => {
    expect(decideMailbox({ address: 'accepted', random: 'no-mailbox' }, 'unknown')).toEqual({ code: 50, catchAll: 'no' });
    expect(decideMailbox({ address: 'accepted', random: 'accepted' }, 'unknown')).toEqual({ code: 45, catchAll: 'yes' });
    expect(decideMailbox({ address: 'accepted', random: 'temporary' }, 'unknown')).toEqual({ code: 20 });
    expect(decideMailbox({ address: 'accepted' }, 'no')).toEqual({ code: 50 });
    expect(decideMailbox({ address: 'accepted' }, 'yes')).toEqual({ code: 45 });
    expect(decideMailbox({ address: 'accepted' }, 'unknown')).toEqual({ code: 20 });
  });

  it('behind a gateway, refusals are proof and acceptance never is: no 50, no catch-all fact', () => {
    expect(decideMailbox({ address: 'no-mailbox' }, 'unknown', 'refusals-only')).toEqual({ code: 400 });
    expect(decideMailbox({ address: 'mailbox-full' }, 'unknown', 'refusals-only')).toEqual({ code: 410 });
    for (const known of ['yes', 'no', 'unknown'] as const) {
      for (const random of [undefined, 'accepted', 'no-mailbox'] as const) {
        expect(decideMailbox({ address: 'accepted', ...(random ? { random } : {}) }, known, 'refusals-only')).toEqual({ code: 20 });
      }
    }
    for (const cls of ['policy', 'temporary', 'rejected-other'] as const)
      expect(decideMailbox({ address: cls }, 'unknown', 'refusals-only')).toEqual({ code: 20 });
  });

  it('maps session failures', () => {
    expect(decideProbeFailure('refused')).toBe(420);
    expect(decideProbeFailure('timeout')).toBe(5);
    expect(decideProbeFailure('banner-reject')).toBe(20);
    expect(decideProbeFailure('protocol-error')).toBe(20);
    expect(decideProbeFailure('egress-failed')).toBe(20);
  });
});

describe('the decisions that stand in for a probe', () => {
  const consistent = (d: Decision) => expect(RULES[d.rule].codes, d.rule).toContain(d.code);

  it('give a code their rule can give', () => {
    for (const code of [50, 400, 410] as const) consistent(decideRemembered(code));
    for (const code of [5, 20, 45, 50, 400, 410] as const) consistent(decideShared({ code }));
    for (const fact of ['yes', 'no', 'unknown', undefined] as const)
      for (const rcpt of ['mailbox', 'refusals-only', 'none'] as const) consistent(decideEgressBlocked(fact, rcpt));
  });

  it('read a cached catch-all fact only where it means something', () => {
    expect(decideEgressBlocked('yes', 'mailbox')).toEqual({ rule: 'health.egress-blocked', code: 45, limit: 'smtp-egress' });
    expect(decideEgressBlocked('yes', 'refusals-only')).toEqual({ rule: 'health.egress-blocked', code: 20, limit: 'smtp-egress' });
    expect(decideEgressBlocked('no', 'mailbox')).toEqual({ rule: 'health.egress-blocked', code: 20, limit: 'smtp-egress' });
  });

  it('believe every MX refusing us only while our connections are trusted', () => {
    const refused = { rule: 'mailbox.every-mx-refuses', code: 420 } as const;
    expect(decideRefusalsTrusted(refused, true)).toBe(refused);
    expect(decideRefusalsTrusted(refused, false)).toEqual({ rule: 'mailbox.refusals-not-trusted', code: 20, limit: 'smtp-egress' });
    const unknownUser = { rule: 'mailbox.unknown-user', code: 400 } as const;
    expect(decideRefusalsTrusted(unknownUser, false)).toBe(unknownUser);
  });
});

describe('a negative DNS answer and our resolver', () => {
  it('counts only while the resolver is trusted; other answers need no trust', () => {
    const nx = decideMailRoute({ kind: 'nxdomain' }) as Decision;
    expect(restsOnNegativeDns(nx)).toBe(true);
    expect(decideTrusted(nx, true)).toBe(nx);
    expect(decideTrusted(nx, false)).toEqual({ rule: 'dns.resolver-not-trusted', code: 5, limit: 'resolver' });
    const unanswered = decideMailRoute({ kind: 'unavailable', reason: 'ETIMEOUT' }) as Decision;
    expect(restsOnNegativeDns(unanswered)).toBe(false);
    expect(decideTrusted(unanswered, false)).toBe(unanswered);
  });
});
