/**
 * Session edge cases against scripted servers on 127.0.0.1 (real sockets): what the test world's
 * well-behaved smtp-server cannot be made to do.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeScripted, scripted, type Script } from '../../../test/helpers/scripted-smtp.js';
import { openSmtpSession, runSmtpSession, type RecipientReply, type SessionOptions } from './smtp-session.js';

afterEach(closeScripted);

/** MAIL and RSET succeed; RCPT is up to `rcpt`. */
const envelope =
  (rcpt: (address: string) => string): Script =>
  (command, reply) => {
    if (/^MAIL FROM/i.test(command) || /^RSET/i.test(command)) reply('250 2.0.0 ok');
    else if (/^RCPT TO:<(.*)>/i.test(command)) reply(rcpt(/^RCPT TO:<(.*)>/i.exec(command)![1]!));
    else reply('502 5.5.1 unknown');
  };

const options = (port: number, extra: Partial<SessionOptions> = {}): SessionOptions => ({
  address: '127.0.0.1',
  port,
  helo: 'probe.mailsure.com',
  from: 'verify@mailsure.com',
  recipients: ['a@x.com'],
  deadline: Date.now() + 2000,
  connectTimeoutMs: 1000,
  startTls: true,
  ...extra,
});

describe('SMTP session', () => {
  it('pipelines MAIL FROM and the RCPTs of a batch when PIPELINING is offered', async () => {
    const { port, chunks } = await scripted(envelope(() => '250 2.1.5 ok'));
    const result = await runSmtpSession(options(port, { recipients: ['a@x.com', 'b@x.com', 'c@x.com'] }));
    expect(result.kind).toBe('replies');
    expect(chunks.find((chunk) => chunk.startsWith('MAIL'))).toBe(
      'MAIL FROM:<verify@mailsure.com>\r\nRCPT TO:<a@x.com>\r\nRCPT TO:<b@x.com>\r\nRCPT TO:<c@x.com>\r\n',
    );
  });

  it('pipelined: a refused MAIL FROM is what every recipient gets, never the RCPT replies that follow it', async () => {
    const { port } = await scripted((command, reply) => {
      if (/^MAIL/i.test(command)) reply('550 5.7.1 sender refused');
      else if (/^RCPT/i.test(command)) reply('503 5.5.1 Error: need MAIL command');
    });
    const result = await runSmtpSession(options(port, { recipients: ['a@x.com', 'b@x.com'] }));
    if (result.kind !== 'replies') throw new Error(result.detail);
    expect([...result.replies.values()]).toEqual([
      expect.objectContaining({ class: 'policy', stage: 'mail', code: 550 }),
      expect.objectContaining({ class: 'policy', stage: 'mail', code: 550 }),
    ]);
  });

  describe('askAll: several transactions in one pipeline', () => {
    async function askAll(port: number, groups: string[][]) {
      const opened = await openSmtpSession(options(port));
      if (opened.kind !== 'open') throw new Error(opened.detail);
      const replies = groups.map(() => new Map<string, RecipientReply>());
      const answered: number[] = [];
      await opened.session.askAll(groups, replies, (index) => answered.push(index), 2);
      await opened.session.end();
      return { answered, classes: replies.map((map) => [...map].map(([address, reply]) => `${address} ${reply.class} ${reply.stage}`)) };
    }

    it('writes every transaction at once and judges each by its own replies', async () => {
      const { port, chunks } = await scripted(envelope((address) => (address.startsWith('a') ? '250 ok' : '550 5.1.1 no such user')));
      const { answered, classes } = await askAll(port, [['a@x.com', 'b@x.com', 'a2@x.com'], ['a@y.com']]);
      expect(answered).toEqual([0, 1]);
      expect(classes).toEqual([['a@x.com accepted rcpt', 'b@x.com no-mailbox rcpt', 'a2@x.com accepted rcpt'], ['a@y.com accepted rcpt']]);
      // Two transactions for the first group (two RCPTs each at most), one for the second, one write.
      expect(chunks.find((chunk) => chunk.startsWith('MAIL'))).toBe(
        [
          'MAIL FROM:<verify@mailsure.com>',
          'RCPT TO:<a@x.com>',
          'RCPT TO:<b@x.com>',
          'RSET',
          'MAIL FROM:<verify@mailsure.com>',
          'RCPT TO:<a2@x.com>',
          'RSET',
          'MAIL FROM:<verify@mailsure.com>',
          'RCPT TO:<a@y.com>',
          '',
        ].join('\r\n'),
      );
    });

    it('a refused MAIL FROM is its transaction’s answer only; the next transaction is judged on its own', async () => {
      let mails = 0;
      const { port } = await scripted((command, reply) => {
        if (/^MAIL/i.test(command)) reply(++mails === 1 ? '550 5.7.1 not now' : '250 ok');
        else if (/^RCPT/i.test(command)) reply(mails === 1 ? '503 5.5.1 need MAIL' : '250 ok');
        else reply('250 ok');
      });
      const { answered, classes } = await askAll(port, [['a@x.com'], ['a@y.com']]);
      expect(answered).toEqual([0, 1]);
      expect(classes).toEqual([['a@x.com policy mail'], ['a@y.com accepted rcpt']]);
    });

    it('a 421 answers the group it came in (temporary) and leaves the later groups unanswered', async () => {
      let rcpts = 0;
      const { port } = await scripted(envelope(() => (++rcpts === 2 ? '421 4.7.0 closing' : '250 ok')));
      const { answered, classes } = await askAll(port, [['a@x.com'], ['a@y.com'], ['a@z.com']]);
      expect(answered).toEqual([0, 1]);
      expect(classes).toEqual([['a@x.com accepted rcpt'], ['a@y.com temporary rcpt'], []]);
    });

    it('too many recipients: asked again in a transaction of its own after the pipeline', async () => {
      let inTransaction = 0;
      const { port } = await scripted((command, reply) => {
        if (/^(MAIL|RSET)/i.test(command)) {
          inTransaction = 0;
          reply('250 ok');
        } else reply(++inTransaction > 1 ? '452 4.5.3 too many recipients' : '250 ok');
      });
      const { answered, classes } = await askAll(port, [['a@x.com', 'b@x.com'], ['a@y.com']]);
      expect(answered.sort()).toEqual([0, 1]);
      expect(classes).toEqual([['a@x.com accepted rcpt', 'b@x.com accepted rcpt'], ['a@y.com accepted rcpt']]);
    });
  });

  it('an open session asks again and again: one transaction per ask, RSET and MAIL FROM between them', async () => {
    const { port, chunks } = await scripted(envelope((address) => (address.startsWith('a') ? '250 ok' : '550 5.1.1 no such user')));
    const opened = await openSmtpSession(options(port));
    if (opened.kind !== 'open') throw new Error(opened.detail);
    const replies = new Map<string, RecipientReply>();
    await opened.session.ask(['a@x.com', 'b@x.com'], replies);
    await opened.session.ask(['a@y.com'], replies);
    await opened.session.end();
    expect([...replies].map(([address, reply]) => [address, reply.class])).toEqual([
      ['a@x.com', 'accepted'],
      ['b@x.com', 'no-mailbox'],
      ['a@y.com', 'accepted'],
    ]);
    const sent = chunks.join('');
    expect(sent.match(/^MAIL FROM/gm)).toHaveLength(2);
    expect(sent.match(/^RSET/gm)).toHaveLength(1);
    expect(sent).toMatch(/QUIT\r\n$/);
  });

  it('one RCPT at a time without PIPELINING', async () => {
    const { port, chunks } = await scripted(
      envelope(() => '250 ok'),
      undefined,
      ['250 scripted'],
    );
    const result = await runSmtpSession(options(port, { recipients: ['a@x.com', 'b@x.com'] }));
    expect(result.kind).toBe('replies');
    expect(chunks.filter((chunk) => chunk.startsWith('RCPT'))).toEqual(['RCPT TO:<a@x.com>\r\n', 'RCPT TO:<b@x.com>\r\n']);
  });

  it('falls back to HELO when EHLO is unknown', async () => {
    const seen: string[] = [];
    const { port } = await scripted(
      (command, reply) => {
        seen.push(command.split(' ')[0]!);
        if (/^HELO/i.test(command)) reply('250 hello');
        else envelope(() => '250 ok')(command, reply, undefined as never);
      },
      undefined,
      ['500 5.5.1 command not recognized'],
    );
    const result = await runSmtpSession(options(port));
    expect(result).toMatchObject({ kind: 'replies', smtputf8: false });
    expect(seen[0]).toBe('HELO');
  });

  it('starts a new transaction on 452 4.5.3 too many recipients, and asks again', async () => {
    let inTransaction = 0;
    const { port, chunks } = await scripted((command, reply) => {
      if (/^(MAIL|RSET)/i.test(command)) {
        inTransaction = 0;
        reply('250 ok');
      } else if (/^RCPT/i.test(command)) reply(++inTransaction > 2 ? '452 4.5.3 Error: too many recipients' : '550 5.1.1 user unknown');
    });
    const recipients = ['a@x.com', 'b@x.com', 'c@x.com', 'd@x.com', 'e@x.com'];
    const result = await runSmtpSession(options(port, { recipients }));
    if (result.kind !== 'replies') throw new Error(result.detail);
    expect([...result.replies.values()].map((reply) => reply.class)).toEqual(Array(5).fill('no-mailbox'));
    expect(chunks.join('').match(/^RSET/gm)).toHaveLength(2);
  });

  it('a 421 mid-batch ends the session; unanswered recipients are temporary', async () => {
    let count = 0;
    const { port } = await scripted(
      envelope(() => (++count === 1 ? '250 ok' : '421 4.7.0 too busy, closing')),
      undefined,
      ['250 scripted'],
    );
    const result = await runSmtpSession(options(port, { recipients: ['a@x.com', 'b@x.com', 'c@x.com'] }));
    if (result.kind !== 'replies') throw new Error(result.detail);
    expect(result.replies.get('a@x.com')?.class).toBe('accepted');
    expect(result.replies.get('b@x.com')).toMatchObject({ class: 'temporary', code: 421 });
    expect(result.replies.get('c@x.com')).toMatchObject({ class: 'temporary', code: 421 });
  });

  it('a refused MAIL FROM is about our probe, never about the recipients', async () => {
    const { port } = await scripted((command, reply) =>
      reply(/^MAIL/i.test(command) ? '550 5.1.8 sender address rejected: user unknown' : '250 ok'),
    );
    const result = await runSmtpSession(options(port, { recipients: ['a@x.com', 'b@x.com'] }));
    if (result.kind !== 'replies') throw new Error(result.detail);
    expect(result.replies.get('a@x.com')).toMatchObject({ class: 'policy', stage: 'mail', code: 550 });
    expect(result.replies.get('b@x.com')).toMatchObject({ class: 'policy', stage: 'mail' });
  });

  it('a temporary MAIL FROM refusal is temporary for everyone', async () => {
    const { port } = await scripted((command, reply) => reply(/^MAIL/i.test(command) ? '451 4.7.1 greylisted, come back later' : '250 ok'));
    const result = await runSmtpSession(options(port));
    if (result.kind !== 'replies') throw new Error(result.detail);
    expect(result.replies.get('a@x.com')).toMatchObject({ class: 'temporary', greylisted: true, stage: 'mail' });
  });

  it('EHLO refused with 554: policy for everyone at the helo stage, no HELO attempt', async () => {
    const { port, chunks } = await scripted(
      envelope(() => '250 ok'),
      undefined,
      ['554 5.7.1 your IP is on our block list'],
    );
    const result = await runSmtpSession(options(port));
    if (result.kind !== 'replies') throw new Error(result.detail);
    expect(result.replies.get('a@x.com')).toMatchObject({ class: 'policy', stage: 'helo', code: 554 });
    expect(chunks.join('')).not.toMatch(/HELO|MAIL/);
  });

  it('banner 421: banner-reject carrying the reply', async () => {
    const { port } = await scripted(
      envelope(() => '250 ok'),
      '421 4.3.2 try later',
    );
    expect(await runSmtpSession(options(port))).toMatchObject({ kind: 'banner-reject', reply: { code: 421, enhanced: '4.3.2' } });
  });

  it('a single endless line is a protocol error, not a memory problem', async () => {
    const { port, server } = await scripted(() => undefined, '');
    server.on('connection', (socket) => {
      const chunk = `220-${'y'.repeat(16 * 1024)}`;
      const pump = () => {
        while (!socket.destroyed && socket.write(chunk));
        if (!socket.destroyed) socket.once('drain', pump);
      };
      pump();
    });
    const result = await runSmtpSession(options(port));
    expect(result).toMatchObject({ kind: 'protocol-error', detail: expect.stringMatching(/longer than/) });
  });

  it('a flood of small replies is a protocol error', async () => {
    const { port } = await scripted(
      envelope(() => '250 ok'),
      `220 hi${'\r\n250 ok'.repeat(2000)}`,
    );
    const result = await runSmtpSession(options(port));
    expect(result).toMatchObject({ kind: 'protocol-error', detail: expect.stringMatching(/more replies/) });
  });

  it('reply lines that disagree on the code are a protocol error', async () => {
    const { port } = await scripted(
      envelope(() => '250 ok'),
      '220-hello\r\n554 gotcha',
    );
    expect(await runSmtpSession(options(port))).toMatchObject({ kind: 'protocol-error', detail: expect.stringMatching(/disagree/) });
  });

  it('garbage instead of a banner is a protocol error', async () => {
    const { port } = await scripted(
      envelope(() => '250 ok'),
      'HTTP/1.1 400 Bad Request',
    );
    expect((await runSmtpSession(options(port))).kind).toBe('protocol-error');
  });

  it('the server hanging up mid-session is a protocol error with the partial replies', async () => {
    let count = 0;
    const { port } = await scripted(
      (command, reply, socket) => {
        if (/^MAIL/i.test(command)) return reply('250 ok');
        if (++count === 1) return reply('250 ok');
        socket.destroy();
      },
      undefined,
      ['250 scripted'],
    );
    const result = await runSmtpSession(options(port, { recipients: ['a@x.com', 'b@x.com'] }));
    expect(result.kind).toBe('protocol-error');
    if (result.kind !== 'replies') expect(result.partial?.get('a@x.com')?.class).toBe('accepted');
  });

  it('refuses replies injected before the TLS handshake (STARTTLS response injection)', async () => {
    const { port } = await scripted(
      (command, reply) => {
        if (/^STARTTLS/i.test(command)) reply('220 go ahead\r\n250 injected');
      },
      undefined,
      ['250-scripted', '250 STARTTLS'],
    );
    expect(await runSmtpSession(options(port))).toMatchObject({
      kind: 'protocol-error',
      detail: expect.stringMatching(/after the STARTTLS/),
    });
  });

  it('a failed TLS handshake is tls-failed (the prober then retries in plaintext)', async () => {
    const { port } = await scripted(
      (command, reply, socket) => {
        if (/^STARTTLS/i.test(command)) {
          reply('220 go ahead');
          socket.once('data', () => socket.end('this is not TLS\r\n'));
        } else envelope(() => '250 ok')(command, reply, socket);
      },
      undefined,
      ['250-scripted', '250 STARTTLS'],
    );
    expect((await runSmtpSession(options(port))).kind).toBe('tls-failed');
    expect((await runSmtpSession(options(port, { startTls: false }))).kind).toBe('replies');
  });

  it('STARTTLS refused by the server: carries on in plaintext', async () => {
    const { port } = await scripted(
      (command, reply) =>
        /^STARTTLS/i.test(command) ? reply('454 4.7.0 TLS not available') : envelope(() => '250 ok')(command, reply, undefined as never),
      undefined,
      ['250-scripted', '250 STARTTLS'],
    );
    expect(await runSmtpSession(options(port))).toMatchObject({ kind: 'replies', tls: false });
  });

  it('a deadline already past is a timeout without connecting', async () => {
    const { port, chunks } = await scripted(envelope(() => '250 ok'));
    expect((await runSmtpSession(options(port, { deadline: Date.now() - 1 }))).kind).toBe('timeout');
    expect(chunks).toEqual([]);
  });

  it('a server that stops answering mid-session: timeout at the deadline, with partial replies', async () => {
    let count = 0;
    const { port } = await scripted(
      (command, reply) => {
        if (/^MAIL/i.test(command)) return reply('250 ok');
        if (++count === 1) reply('550 5.1.1 no such user');
      },
      undefined,
      ['250 scripted'],
    );
    const started = Date.now();
    const result = await runSmtpSession(options(port, { recipients: ['a@x.com', 'b@x.com'], deadline: Date.now() + 300 }));
    expect(result.kind).toBe('timeout');
    // At the deadline: the server never answers the second RCPT.
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    if (result.kind !== 'replies') expect(result.partial?.get('a@x.com')?.class).toBe('no-mailbox');
  });

  it('asks a duplicated recipient once', async () => {
    const { port, chunks } = await scripted(envelope(() => '250 ok'));
    const result = await runSmtpSession(options(port, { recipients: ['a@x.com', 'a@x.com'] }));
    expect(result.kind).toBe('replies');
    expect(chunks.join('').match(/^RCPT/gm)).toHaveLength(1);
  });
});
