/**
 * The socket under one SMTP conversation: connect under a timeout, replies in order, STARTTLS,
 * and one absolute deadline over everything. When the deadline passes the socket is destroyed
 * and every pending or later read fails with `timeout`: nothing a server does can hold us longer.
 */
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import type { SocksProxy } from '../../core/socks-proxy-url.js';
import { connectThroughSocks } from './socks-connect.js';
import { DEFAULT_REPLY_LIMITS, ReplyReader, type ReplyLimits, type SmtpReply } from './smtp-reply.js';
import { TransportError } from './transport-error.js';
import type { Transcript } from './transcript.js';

export { TransportError, type TransportFailure } from './transport-error.js';

export interface ConnectOptions {
  address: string;
  port: number;
  /** Absolute time (ms since epoch, `Date.now()` clock) by which the whole conversation ends. */
  deadline: number;
  connectTimeoutMs: number;
  limits?: ReplyLimits;
  /** Connect through this SOCKS5 proxy (`address` must then be an IP address). */
  proxy?: SocksProxy;
  /** Bind a direct connection to this local address (an egress of MAILSURE_SMTP_SOURCE_ADDRESSES). */
  localAddress?: string;
  /** Records every command and reply (a verdict's evidence). */
  transcript?: Transcript;
}

/** Replies we hold unread: more than any pipelined batch of ours, far less than a flood. */
const MAX_QUEUED_REPLIES = 256;

const UNREACHABLE = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EADDRNOTAVAIL', 'EAI_FAIL']);

export class SmtpTransport {
  private socket: Socket | TLSSocket;
  private reader: ReplyReader;
  private readonly replies: SmtpReply[] = [];
  private waiter: (() => void) | undefined;
  private failure: TransportError | undefined;
  private deadlineTimer: NodeJS.Timeout;
  private secure = false;

  private constructor(
    socket: Socket,
    deadline: number,
    private readonly limits: ReplyLimits,
    private readonly transcript?: Transcript,
  ) {
    this.socket = socket;
    this.reader = new ReplyReader(limits);
    this.listen(socket);
    this.deadlineTimer = setTimeout(() => this.fail(new TransportError('timeout', 'deadline reached')), Math.max(0, deadline - Date.now()));
    this.deadlineTimer.unref();
  }

  static connect(options: ConnectOptions): Promise<SmtpTransport> {
    const remaining = options.deadline - Date.now();
    if (remaining <= 0) return Promise.reject(new TransportError('timeout', 'deadline reached before connecting'));
    const byDeadline = remaining <= options.connectTimeoutMs;
    if (options.proxy) {
      return connectThroughSocks({
        proxy: options.proxy,
        address: options.address,
        port: options.port,
        timeoutMs: Math.min(remaining, options.connectTimeoutMs),
        onTimeout: byDeadline ? 'timeout' : 'connect-timeout',
      }).then((socket) => new SmtpTransport(socket, options.deadline, options.limits ?? DEFAULT_REPLY_LIMITS, options.transcript));
    }
    return new Promise((resolve, reject) => {
      const { localAddress } = options;
      const socket = netConnect({ host: options.address, port: options.port, ...(localAddress ? { localAddress } : {}) });
      socket.setNoDelay(true);
      const timer = setTimeout(
        () => {
          socket.destroy();
          reject(
            byDeadline
              ? new TransportError('timeout', 'deadline reached while connecting')
              : new TransportError('connect-timeout', `no TCP connection in ${options.connectTimeoutMs} ms`),
          );
        },
        Math.min(remaining, options.connectTimeoutMs),
      );
      socket.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        socket.destroy();
        // A source address this host cannot bind is our egress failing, like a proxy that is down.
        if (localAddress && error.syscall === 'bind') {
          reject(new TransportError('proxy', `source address ${localAddress} cannot be used: ${error.code ?? 'error'}`));
          return;
        }
        const kind = error.code === 'ECONNREFUSED' ? 'refused' : UNREACHABLE.has(error.code ?? '') ? 'unreachable' : 'closed';
        reject(new TransportError(kind, `${error.code ?? 'error'}: ${error.message}`));
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new SmtpTransport(socket, options.deadline, options.limits ?? DEFAULT_REPLY_LIMITS, options.transcript));
      });
    });
  }

  get tls(): boolean {
    return this.secure;
  }

  /** False once the conversation has failed or was closed (by either side). */
  get alive(): boolean {
    return this.failure === undefined;
  }

  /** Moves the deadline of what is left of the conversation (a session given more work). */
  setDeadline(deadline: number): void {
    if (this.failure) return;
    clearTimeout(this.deadlineTimer);
    this.deadlineTimer = setTimeout(() => this.fail(new TransportError('timeout', 'deadline reached')), Math.max(0, deadline - Date.now()));
    this.deadlineTimer.unref();
  }

  /** The next reply, in order; rejects with a TransportError once the conversation has failed. */
  async read(): Promise<SmtpReply> {
    for (;;) {
      const next = this.replies.shift();
      if (next) {
        this.transcript?.received(next);
        return next;
      }
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (this.waiter = resolve));
      this.waiter = undefined;
    }
  }

  /** Sends lines (CRLF added); several at once only where PIPELINING allows it. */
  write(...lines: string[]): void {
    if (this.failure) return;
    if (this.transcript) for (const line of lines) this.transcript.sent(line);
    this.socket.write(lines.map((line) => `${line}\r\n`).join(''));
  }

  async command(line: string): Promise<SmtpReply> {
    this.write(line);
    return this.read();
  }

  /**
   * Upgrades after a 220 to STARTTLS. Certificates are not verified: a probe needs only
   * confidentiality for the addresses it asks about, MX certificates are often self-signed or
   * name another host, and the SMTP delivery that follows would not verify them either
   * (opportunistic TLS, RFC 3207 §4.1). Refusing them would only push the probe to plaintext.
   */
  async startTls(servername: string | undefined): Promise<void> {
    // Bytes that arrived with or after the 220 were sent before the handshake, in the clear:
    // accepting them would let a man in the middle inject replies into the TLS session.
    if (this.replies.length > 0 || this.reader.pending) {
      this.fail(new TransportError('protocol', 'data after the STARTTLS reply'));
      throw this.failure!;
    }
    if (this.failure) throw this.failure;
    const plain = this.socket as Socket;
    plain.removeAllListeners('data');
    plain.removeAllListeners('end');
    plain.removeAllListeners('close');
    const secure = tlsConnect({
      socket: plain,
      rejectUnauthorized: false,
      // SNI takes host names only (RFC 6066 §3).
      ...(servername && !isIP(servername) ? { servername } : {}),
    });
    this.socket = secure;
    this.reader = new ReplyReader(this.limits);
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error) => {
        this.fail(new TransportError('tls', `TLS handshake: ${error.message}`));
        reject(this.failure);
      };
      secure.once('error', onError);
      secure.once('secureConnect', () => {
        secure.off('error', onError);
        this.secure = true;
        this.listen(secure);
        resolve();
      });
      // The deadline timer destroys this.socket, which is now the TLS socket.
      secure.once('close', () => reject(this.failure ?? new TransportError('tls', 'closed during the TLS handshake')));
    });
  }

  /** QUIT politely, waiting at most `graceMs` (and never past the deadline) for the 221. */
  async quit(graceMs = 500): Promise<void> {
    if (!this.failure) {
      this.write('QUIT');
      const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
      await Promise.race([this.read().catch(() => undefined), grace]);
    }
    this.close();
  }

  close(): void {
    clearTimeout(this.deadlineTimer);
    this.fail(new TransportError('closed', 'closed by us'));
  }

  private listen(socket: Socket | TLSSocket): void {
    socket.on('data', (chunk: Buffer) => {
      const result = this.reader.push(chunk);
      this.replies.push(...result.replies);
      if (result.error) this.fail(new TransportError('protocol', result.error));
      else if (this.queuedBytes() > 4 * this.limits.maxReplyBytes || this.replies.length > MAX_QUEUED_REPLIES) {
        this.fail(new TransportError('protocol', 'server sent far more replies than were asked for'));
      }
      this.waiter?.();
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      this.fail(new TransportError('closed', `${error.code ?? 'error'}: ${error.message}`)),
    );
    socket.on('end', () => this.fail(new TransportError('closed', 'connection closed by the server')));
    socket.on('close', () => this.fail(new TransportError('closed', 'connection closed')));
  }

  private queuedBytes(): number {
    return this.replies.reduce((sum, reply) => sum + reply.text.length, 0);
  }

  /** The first failure wins; the socket is destroyed so a hostile server stops costing us. */
  private fail(error: TransportError): void {
    if (!this.failure) {
      this.failure = error;
      // Replies queued before a close are the server's last words (a 554 banner, a 421) and
      // still count; after a protocol error or the deadline the conversation is void.
      if (error.kind !== 'closed') this.replies.length = 0;
      clearTimeout(this.deadlineTimer);
      this.socket.destroy();
    }
    this.waiter?.();
  }
}
