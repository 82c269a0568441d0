import { describe, expect, it } from 'vitest';
import { ProbeEvidence, refusalIsAboutUs } from './probe-evidence.js';

const T0 = 1_700_000_000_000;
const fail = (operator: string, detail = `refused: ${operator}`) => ({ operator, connected: false, detail });
const ok = (operator: string) => ({ operator, connected: true, detail: 'connected' });

describe('refusalIsAboutUs', () => {
  it.each([
    '554 5.7.1 Service unavailable; Client host [1.2.3.4] blocked using zen.spamhaus.org',
    '550 5.7.1 Your IP address is listed',
    'Reverse DNS lookup failed',
    '421 4.7.0 poor reputation',
    "553 5.7.1 [BL21] Connections will not be accepted from 198.51.100.7, because the ip is in Spamhaus's list",
    '554 5.7.1 Rejected: host 198.51.100.7 blacklisted by bl.spamcop.net',
    '550 Helo command rejected: need fully-qualified hostname',
    '450 4.7.1 Client host rejected: cannot find your reverse hostname',
    '550 5.7.25 The IP address sending this message does not have a PTR record setup',
    '554 your mail server is listed on a DNSBL',
    '550 Connecting IP 198.51.100.7 found in RBL',
    '554 5.7.1 rejected because 198.51.100.7 is listed at b.barracudacentral.org',
    // Outlook, Gmail: the IP's dots and "sending IP" / "the IP you're using" wording.
    '550 5.7.606 Access denied, banned sending IP [198.51.100.7]. To request removal from this list please visit https://sender.office.com/',
    "550-5.7.1 [198.51.100.7] The IP you're using to send mail is not authorized to send email directly to our servers.",
  ])('blames us for %j', (text) => {
    expect(refusalIsAboutUs(text)).toBe(true);
  });

  it.each([
    '550 5.1.1 user unknown',
    'mailbox unavailable',
    '5.7.1 Recipient address rejected: Access denied',
    '550 5.1.1 <a@b.com>: Recipient address rejected: User unknown in virtual mailbox table',
    '552 5.2.2 mailbox full',
    '554 5.7.1 <a@b.com>: Relay access denied',
    '450 4.2.0 Greylisted, please try again later',
    '550 5.2.1 The email account that you tried to reach is disabled',
    // "address … blocked/listed" speaks of the recipient's address, not ours.
    '550 5.7.1 Recipient address blocked by policy',
    '550 5.7.1 The recipient address is blocked',
    '554 5.7.1 <x@y.com>: Recipient address rejected: this address is listed as inactive',
  ])('does not blame us for %j', (text) => {
    expect(refusalIsAboutUs(text)).toBe(false);
  });

  it('matches regardless of case', () => {
    expect(refusalIsAboutUs('CLIENT HOST [1.2.3.4] BLOCKED')).toBe(true);
    expect(refusalIsAboutUs('Listed In Spamhaus')).toBe(true);
  });
});

describe('ProbeEvidence: egress breaker', () => {
  it('trips only at three distinct failing operators by default', () => {
    const e = new ProbeEvidence();
    e.recordConnection(fail('a.com'), T0);
    e.recordConnection(fail('b.net'), T0 + 1);
    expect(e.egress(T0 + 2).blocked).toBe(false);
    e.recordConnection(fail('c.org'), T0 + 3);
    expect(e.egress(T0 + 4)).toEqual({
      blocked: true,
      failures: [
        { operator: 'c.org', detail: 'refused: c.org' },
        { operator: 'b.net', detail: 'refused: b.net' },
        { operator: 'a.com', detail: 'refused: a.com' },
      ],
    });
  });

  it('honours a configured operator count, on both sides', () => {
    const e = new ProbeEvidence({ operators: 2 });
    e.recordConnection(fail('a.com'), T0);
    expect(e.egress(T0).blocked).toBe(false);
    e.recordConnection(fail('b.com'), T0);
    expect(e.egress(T0).blocked).toBe(true);
  });

  it('does not trip on one operator failing again and again, and reports its latest detail', () => {
    const e = new ProbeEvidence();
    for (let i = 0; i < 50; i++) e.recordConnection(fail('a.com', `try ${i}`), T0 + i);
    e.recordConnection(fail('b.com'), T0 + 50);
    expect(e.egress(T0 + 51)).toEqual({
      blocked: false,
      failures: [
        { operator: 'b.com', detail: 'refused: b.com' },
        { operator: 'a.com', detail: 'try 49' },
      ],
    });
  });

  it('clears the failures on a successful connection', () => {
    const e = new ProbeEvidence();
    e.recordConnection(fail('a.com'), T0);
    e.recordConnection(fail('b.com'), T0 + 1);
    e.recordConnection(ok('d.com'), T0 + 2);
    e.recordConnection(fail('c.com'), T0 + 3);
    expect(e.egress(T0 + 4)).toEqual({ blocked: false, failures: [{ operator: 'c.com', detail: 'refused: c.com' }] });
    expect(e.lastSuccessAt()).toBe(T0 + 2);
  });

  it('clears a tripped breaker on a success, including one reported by recordSuccess', () => {
    const e = new ProbeEvidence();
    for (const op of ['a.com', 'b.com', 'c.com']) e.recordConnection(fail(op), T0);
    expect(e.egress(T0).blocked).toBe(true);
    e.recordSuccess(T0 + 10);
    expect(e.egress(T0 + 10)).toEqual({ blocked: false, failures: [] });
    expect(e.lastSuccessAt()).toBe(T0 + 10);
  });

  it('has seen no success before the first one', () => {
    expect(new ProbeEvidence().lastSuccessAt()).toBe(-Infinity);
  });

  it('forgets failures once they are a full window old', () => {
    const e = new ProbeEvidence({ windowMs: 1_000 });
    e.recordConnection(fail('a.com'), T0);
    e.recordConnection(fail('b.com'), T0 + 500);
    e.recordConnection(fail('c.com'), T0 + 900);
    expect(e.egress(T0 + 999).blocked).toBe(true);
    const later = e.egress(T0 + 1_000);
    expect(later.blocked).toBe(false);
    expect(later.failures.map((f) => f.operator)).toEqual(['c.com', 'b.com']);
  });

  it('uses a two-minute window by default', () => {
    const e = new ProbeEvidence();
    for (const op of ['a.com', 'b.com', 'c.com']) e.recordConnection(fail(op), T0);
    expect(e.egress(T0 + 119_999).blocked).toBe(true);
    expect(e.egress(T0 + 120_000).blocked).toBe(false);
  });

  it('stays bounded and still answers under heavy traffic', () => {
    const e = new ProbeEvidence();
    for (let i = 0; i < 5_000; i++) e.recordConnection(fail(`op${i % 7}.com`), T0 + i);
    const verdict = e.egress(T0 + 5_000);
    expect(verdict.blocked).toBe(true);
    expect(verdict.failures).toHaveLength(7);
    // The newest failure (i = 4999) comes first.
    expect(verdict.failures[0]).toEqual({ operator: 'op1.com', detail: 'refused: op1.com' });
    for (let i = 0; i < 5_000; i++) e.recordRefusalAboutUs(`op${i % 3}.com`, `listed ${i}`, T0 + i);
    expect(e.reputation(T0 + 5_000)).toHaveLength(3);
  });

  it('remembers at most the newest thousand failures', () => {
    const e = new ProbeEvidence();
    for (let i = 0; i <= 1_000; i++) e.recordConnection(fail(`op${i}.com`), T0);
    const { failures } = e.egress(T0);
    expect(failures.length).toBeLessThanOrEqual(1_000);
    expect(failures.length).toBeGreaterThanOrEqual(3);
    expect(failures[0]!.operator).toBe('op1000.com');
  });
});

describe('ProbeEvidence: reputation', () => {
  it('keeps the latest text of each operator within the window', () => {
    const e = new ProbeEvidence();
    e.recordRefusalAboutUs('a.com', 'first', T0);
    e.recordRefusalAboutUs('b.com', 'other', T0 + 1);
    e.recordRefusalAboutUs('a.com', 'second', T0 + 2);
    expect(e.reputation(T0 + 3)).toEqual([
      { operator: 'a.com', text: 'second' },
      { operator: 'b.com', text: 'other' },
    ]);
  });

  it('forgets refusals a full reputation window old (15 minutes by default)', () => {
    const e = new ProbeEvidence();
    e.recordRefusalAboutUs('a.com', 'old', T0);
    e.recordRefusalAboutUs('b.com', 'new', T0 + 60_000);
    expect(e.reputation(T0 + 899_999).map((r) => r.operator)).toEqual(['a.com', 'b.com']);
    expect(e.reputation(T0 + 900_000)).toEqual([{ operator: 'b.com', text: 'new' }]);
    expect(e.reputation(T0 + 960_000)).toEqual([]);
  });

  it('honours a configured reputation window, independent of the egress window', () => {
    const e = new ProbeEvidence({ windowMs: 10, reputationWindowMs: 100 });
    e.recordRefusalAboutUs('a.com', 'x', T0);
    expect(e.reputation(T0 + 99)).toHaveLength(1);
    expect(e.reputation(T0 + 100)).toHaveLength(0);
  });

  it('is not cleared by a successful connection', () => {
    const e = new ProbeEvidence();
    e.recordRefusalAboutUs('a.com', 'x', T0);
    e.recordSuccess(T0 + 1);
    expect(e.reputation(T0 + 2)).toEqual([{ operator: 'a.com', text: 'x' }]);
  });

  it('keeps at most 200 characters of a refusal text', () => {
    const e = new ProbeEvidence();
    e.recordRefusalAboutUs('a.com', 'x'.repeat(500), T0);
    expect(e.reputation(T0)[0]!.text).toBe('x'.repeat(200));
  });
});
