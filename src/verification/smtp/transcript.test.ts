import { describe, expect, it } from 'vitest';
import { Transcript } from './transcript.js';

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
