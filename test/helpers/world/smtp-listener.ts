/**
 * One test SMTP server: smtp-server for the behaviours that speak SMTP, a bare TCP server for the
 * ones that must misbehave below the protocol (tarpit, hostile reply).
 */
import { createServer, type Server, type Socket } from 'node:net';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import {
  newProviderState,
  providerConnect,
  providerMailFrom,
  type ProviderConnection,
  type ProviderMode,
  type ProviderSimState,
} from './provider-sims.js';
import { DEFAULT_BANNER_DELAY_MS, decideRcpt, REPLIES, type SmtpServerSpec } from './smtp-behaviour.js';
import { clearLog, emptyLog, type SmtpServerLog, type SmtpSessionLog } from './smtp-log.js';

export interface TlsPair {
  key: string;
  cert: string;
}

export interface SmtpListener {
  name: string;
  spec: SmtpServerSpec;
  log: SmtpServerLog;
  /** Rejects with EADDRINUSE when the port is taken on this address. */
  listen(port: number): Promise<void>;
  close(): Promise<void>;
  /** Forget the log and greylisting memory (and a provider's mode), between tests sharing one world. */
  reset(): void;
  /** A `provider` server: block the prober, throttle it (after `after` more connections), or serve it normally. */
  setProviderMode(mode: ProviderMode, after?: number): void;
}

/** A hostile server stops on its own after this much, in case a client never gives up. */
const HOSTILE_LIMIT = 16 * 1024 * 1024;
const QUIT = /(^|\n)QUIT\r?\n/i;
const STARTTLS = /(^|\n)STARTTLS\r?\n/i;

export function createSmtpListener(name: string, spec: SmtpServerSpec, tls?: TlsPair): SmtpListener {
  const log = emptyLog(name, spec.address, spec.behaviour);
  const greylist = new Map<string, number>();
  const provider = newProviderState();
  const sockets = new Set<Socket>();

  /** Each open connection's raw socket and end of session, by the client's address and port. */
  const open = new Map<string, { raw: Socket; end: () => void }>();
  // smtp-server takes every listener off the plain socket at STARTTLS, ours included (so the
  // count once missed every STARTTLS session's end): from then on the TLS socket that onSecure
  // hands over carries the session's QUIT and close.
  const secured = (secure: Socket, remote: string) => {
    const connection = open.get(remote);
    if (!connection) return;
    sockets.delete(connection.raw);
    sockets.add(secure);
    secure.on('data', (chunk: Buffer) => QUIT.test(chunk.toString('latin1')) && connection.end());
    secure.once('close', () => {
      sockets.delete(secure);
      connection.end();
    });
  };
  const smtp =
    spec.behaviour === 'tarpit' || spec.behaviour === 'huge-reply' ? null : smtpServer(name, spec, log, greylist, provider, tls, secured);
  const server: Server = smtp ? smtp.server : createServer((socket) => rawBehaviour(spec, socket));

  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    log.connections++;
    log.active++;
    log.maxActive = Math.max(log.maxActive, log.active);
    const remote = `${socket.remoteAddress}:${socket.remotePort}`;
    // A session ends at QUIT, as far as the server is concerned. Counting until the socket's
    // close event instead would race with the client's next connection: the client may release
    // its slot and reconnect before this process has processed the old socket's FIN.
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      open.delete(remote);
      log.active--;
    };
    open.set(remote, { raw: socket, end });
    const watch = (chunk: Buffer) => {
      const text = chunk.toString('latin1');
      if (QUIT.test(text)) end();
      // After STARTTLS the bytes are ciphertext (and belong to the TLS layer): stop looking.
      if (STARTTLS.test(text)) socket.off('data', watch);
    };
    if (smtp) socket.on('data', watch);
    socket.once('close', () => {
      sockets.delete(socket);
      end();
    });
  });

  return {
    name,
    spec,
    log,
    listen: (port) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, spec.address, () => {
          server.off('error', reject);
          resolve();
        });
      }),
    close: () =>
      new Promise((resolve) => {
        // Tests end mid-conversation (tarpits, timeouts); closing must not wait for clients.
        for (const socket of sockets) socket.destroy();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
    reset() {
      clearLog(log);
      greylist.clear();
      Object.assign(provider, newProviderState());
    },
    setProviderMode(mode, after = 0) {
      if (spec.behaviour !== 'provider') throw new Error(`SMTP server ${name} simulates no provider`);
      Object.assign(provider, newProviderState(), { mode, connectionsBeforeThrottle: after });
    },
  };
}

function smtpServer(
  name: string,
  spec: SmtpServerSpec,
  log: SmtpServerLog,
  greylist: Map<string, number>,
  provider: ProviderSimState,
  tls: TlsPair | undefined,
  secured: (socket: Socket, remote: string) => void,
): SMTPServer {
  const starttls = spec.starttls === true;
  if (starttls && !tls) throw new Error(`SMTP server ${name}: starttls needs a certificate`);
  const sessions = new Map<string, SmtpSessionLog>();
  const connections = new Map<string, ProviderConnection>();
  const sessionLog = (session: SMTPServerSession): SmtpSessionLog => {
    let entry = sessions.get(session.id);
    if (!entry) {
      entry = { id: session.id, remoteAddress: session.remoteAddress, remotePort: session.remotePort, tls: false, mailFrom: [], rcpts: [] };
      sessions.set(session.id, entry);
      log.sessions.push(entry);
    }
    // smtp-server keeps these `false` until known, though typed as strings.
    if (session.hostNameAppearsAs) entry.helo = session.hostNameAppearsAs;
    if (session.openingCommand) entry.openingCommand = session.openingCommand;
    entry.tls = entry.tls || session.secure;
    return entry;
  };
  const fail = (reply: { code: number; message: string }) => Object.assign(new Error(reply.message), { responseCode: reply.code });

  const options: SMTPServerOptions = {
    name: `mx-${name}.world`,
    banner: 'Mailsure test world',
    logger: false,
    // A reverse lookup would leave loopback for the system resolvers.
    disableReverseLookup: true,
    authOptional: true,
    disabledCommands: starttls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    hideSTARTTLS: !starttls,
    hideSMTPUTF8: spec.smtputf8 === false,
    closeTimeout: 100,
    ...(starttls && tls ? { key: tls.key, cert: tls.cert } : {}),
    onConnect(session, callback) {
      sessionLog(session);
      if (spec.behaviour === 'banner-reject') return callback(fail(REPLIES.bannerReject));
      if (spec.behaviour === 'provider') {
        const { connection, refusal } = providerConnect(spec.provider!, provider);
        connections.set(session.id, connection);
        if (refusal) return callback(fail(refusal));
      }
      if (spec.behaviour === 'slow-banner') {
        setTimeout(() => callback(), spec.bannerDelayMs ?? DEFAULT_BANNER_DELAY_MS).unref();
        return;
      }
      callback();
    },
    onMailFrom(address, session, callback) {
      sessionLog(session).mailFrom.push({ address: address.address, smtputf8: session.envelope.smtpUtf8 === true });
      const connection = connections.get(session.id);
      const refusal = connection ? providerMailFrom(spec.provider!, connection) : undefined;
      callback(refusal ? fail(refusal) : undefined);
    },
    onRcptTo(address, session, callback) {
      const reply = decideRcpt(spec, address.address, {
        clientAddress: session.remoteAddress,
        now: Date.now(),
        greylist,
        ...(connections.has(session.id) ? { provider: connections.get(session.id)! } : {}),
      });
      sessionLog(session).rcpts.push({ address: address.address, code: reply.code });
      callback(reply.code < 300 ? null : fail(reply));
    },
    onData(stream, _session, callback) {
      // Probes never send DATA; anything that does gets nothing delivered.
      stream.resume();
      stream.once('end', () => callback(fail({ code: 554, message: '5.7.1 the test world delivers nothing' })));
    },
    onSecure(socket, session, callback) {
      secured(socket as Socket, `${session.remoteAddress}:${session.remotePort}`);
      callback();
    },
    onClose(session) {
      sessionLog(session);
      connections.delete(session.id);
    },
  };
  const server = new SMTPServer(options);
  // Listen errors surface through listen(); connection-level noise (resets by impatient clients) is expected.
  server.on('error', () => undefined);
  return server;
}

function rawBehaviour(spec: SmtpServerSpec, socket: Socket): void {
  socket.on('error', () => undefined);
  if (spec.behaviour === 'tarpit') return; // hold the connection, say nothing
  socket.write('220 mx-hostile.world ESMTP\r\n');
  socket.once('data', () => {
    const line = `250-${'x'.repeat(1000)}\r\n`;
    let sent = 0;
    const pump = (): void => {
      while (!socket.destroyed && sent < HOSTILE_LIMIT) {
        sent += line.length;
        if (!socket.write(line)) return void socket.once('drain', pump);
      }
      if (!socket.destroyed) socket.end('250 done\r\n');
    };
    pump();
  });
}
