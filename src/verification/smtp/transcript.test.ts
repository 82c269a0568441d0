import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADDRESS_REMOVED, removeAddresses, Transcript } from './transcript.js';

const reply = (code: number, text: string, enhanced?: string) => ({ code, text, lines: [text], ...(enhanced ? { enhanced } : {}) });

/** A pooled session: the greeting, then one pipelined round carrying two calls' RCPTs and a catch-all probe. */
function pooled(): Transcript {
  const t = new Transcript();
  t.received(reply(220, 'mx.example.com ESMTP'));
  t.sent('EHLO probe.example.net');
  t.received(reply(250, 'mx.example.com PIPELINING'));
  return t;
}

describe('a transcript', () => {
  it('pairs pipelined commands with their replies in order, the greeting and an unasked reply without a command', () => {
    const t = pooled();
    const from = t.mark();
    t.sent('MAIL FROM:<verify@probe.example.net>');
    t.sent('RCPT TO:<ann@example.com>');
    t.sent('RCPT TO:<bob@example.com>');
    t.sent('RCPT TO:<x7x7x7@example.com>');
    t.received(reply(250, 'OK'));
    t.received(reply(550, 'no such user ann@example.com', '5.1.1'));
    t.received(reply(250, 'OK'));
    t.received(reply(550, 'no such user', '5.1.1'));
    t.received(reply(421, 'closing'));
    const ann = t.view({
      from,
      recipients: new Map([
        ['ann@example.com', 'address'],
        ['x7x7x7@example.com', 'catch-all-probe'],
      ]),
    });
    expect(ann.map((s) => [s.command, s.role, s.reply?.code, s.reply?.enhanced])).toEqual([
      [undefined, undefined, 220, undefined],
      ['EHLO probe.example.net', undefined, 250, undefined],
      ['MAIL FROM:<verify@probe.example.net>', 'our-sender', 250, undefined],
      ['RCPT TO:<ann@example.com>', 'address', 550, '5.1.1'],
      ['RCPT TO:<x7x7x7@example.com>', 'catch-all-probe', 550, '5.1.1'],
      [undefined, undefined, 421, undefined],
    ]);
    // Bob's RCPT, its reply and anything naming him are not in Ann's view.
    expect(JSON.stringify(ann)).not.toContain('bob@');
    for (const step of ann) expect(step.atMs).toBeGreaterThanOrEqual(0);
  });

  it("a later round's view: the greeting, then only what was written from its mark on", () => {
    const t = pooled();
    t.sent('MAIL FROM:<verify@probe.example.net>');
    t.sent('RCPT TO:<first@example.com>');
    t.received(reply(250, 'OK'));
    t.received(reply(250, 'OK'));
    const from = t.mark();
    t.sent('RSET');
    t.sent('MAIL FROM:<verify@probe.example.net>');
    t.sent('RCPT TO:<second@example.com>');
    t.received(reply(250, 'OK'));
    t.received(reply(250, 'OK'));
    // No reply yet for the RCPT: the deadline came first.
    const second = t.view({ from, recipients: new Map([['second@example.com', 'address']]) });
    expect(second.map((s) => s.command)).toEqual([
      undefined,
      'EHLO probe.example.net',
      'RSET',
      'MAIL FROM:<verify@probe.example.net>',
      'RCPT TO:<second@example.com>',
    ]);
    expect(second.at(-1)!.reply).toBeUndefined();
  });
});

describe('addresses in replies', () => {
  it('are removed from a view, bare, bracketed or tagged, while codes, times and names stay', () => {
    const t = new Transcript();
    t.received(reply(220, 'mx.example.com ESMTP Exim 4.96 Sat, 28 Nov 2026 04:52:50 +0000'));
    t.sent('EHLO probe.example.net');
    t.received(reply(250, 'mx.example.com Hello probe.example.net [192.0.2.7] SIZE 52428800'));
    t.sent('MAIL FROM:<verify@probe.example.net>');
    t.received(reply(550, 'Service unavailable; client [IPv6:2001:db8::7] blocked using zen.example, see 5.7.1 at 10.0.0.1:25', '5.7.1'));
    const texts = t.view({ from: 0, recipients: new Map() }).map((s) => s.reply?.text);
    expect(texts).toEqual([
      'mx.example.com ESMTP Exim 4.96 Sat, 28 Nov 2026 04:52:50 +0000',
      'mx.example.com Hello probe.example.net [(address removed)] SIZE 52428800',
      'Service unavailable; client [IPv6:(address removed)] blocked using zen.example, see 5.7.1 at (address removed):25',
    ]);
  });

  it('leaves no IPv4 or IPv6 address behind, however the server writes it (property)', () => {
    const words = fc
      .array(fc.constantFrom('client', 'Hello', 'from', 'blocked', '5.7.1', '04:52:50', 'host', 'x'), { maxLength: 4 })
      .map((w) => w.join(' '));
    const shapes = [(a: string) => a, (a: string) => `[${a}]`, (a: string) => `(${a})`];
    // A port after an IPv6 address is written with brackets ([…]:25); bare, it would be another address.
    const written = fc.oneof(
      fc.tuple(
        fc.ipV4(),
        fc.constantFrom(...shapes, (a: string) => `${a}:25`),
      ),
      fc.tuple(
        fc.ipV6(),
        fc.constantFrom(
          ...shapes,
          (a: string) => `[IPv6:${a}]`,
          (a: string) => `[${a}]:25`,
        ),
      ),
    );
    fc.assert(
      fc.property(words, written, words, (before, [ip, shape], after) => {
        const out = removeAddresses(`${before} ${shape(ip)} ${after}`);
        expect(out).toContain(ADDRESS_REMOVED);
        expect(out.replace(ADDRESS_REMOVED, '')).not.toContain(ip);
        expect(out.startsWith(`${before} `)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
