import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ehloKeywords, leadingEnhancedCode, ReplyReader } from './smtp-reply.js';

const read = (wire: string, limits?: ConstructorParameters<typeof ReplyReader>[0]) =>
  new ReplyReader(limits).push(Buffer.from(wire, 'utf8'));

describe('ReplyReader', () => {
  it('parses a single-line reply with an enhanced code', () => {
    expect(read('550 5.1.1 user unknown\r\n')).toEqual({
      replies: [{ code: 550, enhanced: '5.1.1', text: 'user unknown', lines: ['5.1.1 user unknown'] }],
    });
  });

  it('assembles a multi-line reply and strips the repeated enhanced code (Gmail style)', () => {
    const wire =
      '550-5.1.1 The email account that you tried to reach does not exist. Please try\r\n' +
      "550-5.1.1 double-checking the recipient's email address for typos or\r\n" +
      '550 5.1.1 unnecessary spaces. https://support.google.com/mail/?p=NoSuchUser a1si2 - gsmtp\r\n';
    const [reply] = read(wire).replies;
    expect(reply).toMatchObject({ code: 550, enhanced: '5.1.1' });
    expect(reply!.text).toBe(
      "The email account that you tried to reach does not exist. Please try double-checking the recipient's email address for typos or unnecessary spaces. https://support.google.com/mail/?p=NoSuchUser a1si2 - gsmtp",
    );
  });

  it('accepts a bare code, bare LF line ends, and several replies in one chunk', () => {
    expect(read('250\n221 2.0.0 bye\r\n').replies).toEqual([
      { code: 250, text: '', lines: [''] },
      { code: 221, enhanced: '2.0.0', text: 'bye', lines: ['2.0.0 bye'] },
    ]);
  });

  it('does not take a version-like number for an enhanced code', () => {
    expect(read('220 mx.example.com ESMTP Postfix 3.5.1\r\n').replies[0]).not.toHaveProperty('enhanced');
    expect(leadingEnhancedCode('5.1.1x')).toBeUndefined();
    expect(leadingEnhancedCode('6.1.1 nope')).toBeUndefined();
    expect(leadingEnhancedCode('5.1.10 RESOLVER.ADR.RecipientNotFound')).toBe('5.1.10');
  });

  it('lists EHLO keywords from the lines after the greeting', () => {
    const [reply] = read('250-mx.example.com Hello\r\n250-PIPELINING\r\n250-SIZE 35882577\r\n250-starttls\r\n250 SMTPUTF8\r\n').replies;
    expect([...ehloKeywords(reply!)]).toEqual(['PIPELINING', 'SIZE', 'STARTTLS', 'SMTPUTF8']);
  });

  it('keeps UTF-8 text intact across chunk boundaries', () => {
    const reader = new ReplyReader();
    const bytes = Buffer.from('550 5.1.1 Benutzer unbekannt: jörg\r\n');
    const at = bytes.indexOf(0xc3) + 1; // split inside "ö"
    expect(reader.push(bytes.subarray(0, at)).replies).toEqual([]);
    expect(reader.push(bytes.subarray(at)).replies[0]?.text).toBe('Benutzer unbekannt: jörg');
  });

  it('rejects malformed lines and lines that disagree on the code', () => {
    expect(read('hello\r\n').error).toMatch(/malformed/);
    expect(read('250-ok\r\n550 no\r\n').error).toMatch(/disagree/);
    expect(read('25 short\r\n').error).toMatch(/malformed/);
  });

  it('caps a line, even one still unterminated', () => {
    const limits = { maxLineBytes: 100, maxReplyBytes: 1000 };
    expect(read(`250 ${'x'.repeat(200)}`, limits).error).toMatch(/longer than 100/);
    expect(read(`250 ${'x'.repeat(200)}\r\n`, limits).error).toMatch(/longer than 100/);
  });

  it('caps a reply across its continuation lines', () => {
    const limits = { maxLineBytes: 100, maxReplyBytes: 1000 };
    expect(read(`250-${'x'.repeat(90)}\r\n`.repeat(20), limits).error).toMatch(/larger than 1000/);
    // The budget is per reply: many small complete replies are fine here (the transport caps those).
    expect(read(`250 ${'x'.repeat(90)}\r\n`.repeat(20), limits).replies).toHaveLength(20);
  });

  it('reports the pending state STARTTLS must check', () => {
    const reader = new ReplyReader();
    reader.push(Buffer.from('220 go ahead\r\n'));
    expect(reader.pending).toBe(false);
    reader.push(Buffer.from('250-inj'));
    expect(reader.pending).toBe(true);
  });

  it('property: any chunking of the wire gives the same replies', () => {
    const line = fc.stringMatching(/^[ -~]{0,40}$/);
    const reply = fc.record({ code: fc.integer({ min: 200, max: 599 }), lines: fc.array(line, { minLength: 1, maxLength: 4 }) });
    fc.assert(
      fc.property(
        fc.array(reply, { minLength: 1, maxLength: 5 }),
        fc.array(fc.integer({ min: 1, max: 30 }), { maxLength: 20 }),
        (replies, cuts) => {
          const wire = Buffer.from(
            replies
              .map(({ code, lines }) => lines.map((text, i) => `${code}${i < lines.length - 1 ? '-' : ' '}${text}\r\n`).join(''))
              .join(''),
          );
          const whole = new ReplyReader().push(wire);
          const reader = new ReplyReader();
          const pieces: unknown[] = [];
          let at = 0;
          for (const cut of cuts) {
            pieces.push(...reader.push(wire.subarray(at, at + cut)).replies);
            at += cut;
          }
          pieces.push(...reader.push(wire.subarray(at)).replies);
          expect(whole.error).toBeUndefined();
          expect(pieces).toEqual(whole.replies);
          expect(whole.replies.map((r) => r.code)).toEqual(replies.map((r) => r.code));
        },
      ),
    );
  });

  it('property: never throws on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 10 }), (chunks) => {
        const reader = new ReplyReader({ maxLineBytes: 64, maxReplyBytes: 256 });
        for (const chunk of chunks) {
          const result = reader.push(Buffer.from(chunk));
          if (result.error) break;
        }
      }),
    );
  });
});
