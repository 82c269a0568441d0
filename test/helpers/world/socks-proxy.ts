/**
 * A real SOCKS5 proxy on loopback for the proxy tests (@pondwader/socks5-server does the
 * protocol: greeting, RFC 1929 authentication, CONNECT). Its outbound connections leave from an
 * address of their own (default 127.0.0.240, never the 127.0.0.1 a direct probe comes from), so
 * an SMTP server of the world can tell a connection that came through the proxy, and the log
 * holds each request's destination and the local port of the connection it opened, to match
 * against what the SMTP server saw.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { Socks5Server } from '@pondwader/socks5-server';

export interface SocksRequest {
  /** Where the request came from (the prober). */
  source: string;
  /** The destination as the client sent it: an IP address, or a name the proxy would resolve. */
  destination: string;
  port: number;
  username?: string;
  /** The SOCKS reply it got. */
  reply?: string;
  /** The proxy's own connection to the destination, once open. */
  outbound?: { localAddress: string; localPort: number };
}

export interface TestSocksProxy {
  host: string;
  port: number;
  /** `socks5://[user:pass@]host:port`, for MAILSURE_SMTP_PROXY. */
  url: string;
  /** The address its outbound connections come from. */
  outboundAddress: string;
  /** CONNECT requests, in order. */
  requests: SocksRequest[];
  /** Greetings whose credentials it refused. */
  authFailures: number;
  /** Stops listening: connections to it are refused from now on (a proxy that is down). */
  close(): Promise<void>;
  reset(): void;
}

export interface SocksProxyOptions {
  host?: string;
  outboundAddress?: string;
  auth?: { username: string; password: string };
  /** Destination ports its rules refuse (reply 2, "connection not allowed by ruleset"). */
  deniedPorts?: readonly number[];
  /** Destination addresses it never answers a CONNECT for, as if dialling a filtered host. */
  heldAddresses?: readonly string[];
}

const STATUS_OF: Record<string, 'CONNECTION_REFUSED' | 'HOST_UNREACHABLE' | 'NETWORK_UNREACHABLE'> = {
  ECONNREFUSED: 'CONNECTION_REFUSED',
  EHOSTUNREACH: 'HOST_UNREACHABLE',
  ENETUNREACH: 'NETWORK_UNREACHABLE',
};

export async function startSocksProxy(options: SocksProxyOptions = {}): Promise<TestSocksProxy> {
  const host = options.host ?? '127.0.0.1';
  const outboundAddress = options.outboundAddress ?? '127.0.0.240';
  const requests: SocksRequest[] = [];
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => sockets.delete(socket));
  };
  const state = { authFailures: 0 };

  const socks = new Socks5Server();
  if (options.auth) {
    const { username, password } = options.auth;
    socks.setAuthHandler((conn) => {
      const ok = conn.username === username && conn.password === password;
      if (!ok) state.authFailures++;
      return ok;
    });
  }
  socks.setRulesetValidator((conn) => {
    if (!options.deniedPorts?.includes(conn.destPort)) return true;
    requests.push({ source: remoteOf(conn.socket), destination: conn.destAddress, port: conn.destPort, reply: 'CONNECTION_NOT_ALLOWED' });
    return false;
  });
  socks.setConnectionHandler((conn, sendStatus) => {
    const request: SocksRequest = {
      source: remoteOf(conn.socket),
      destination: conn.destAddress,
      port: conn.destPort,
      ...(conn.username ? { username: conn.username } : {}),
    };
    requests.push(request);
    const reply = (status: Parameters<typeof sendStatus>[0]) => {
      request.reply = status;
      sendStatus(status);
    };
    if (conn.command !== 'connect') return reply('COMMAND_NOT_SUPPORTED');
    if (options.heldAddresses?.includes(conn.destAddress)) return;
    const out = connect({ host: conn.destAddress, port: conn.destPort, localAddress: outboundAddress });
    track(out);
    let opened = false;
    out.once('error', (error: NodeJS.ErrnoException) => {
      if (!opened) reply(STATUS_OF[error.code ?? ''] ?? 'GENERAL_FAILURE');
      conn.socket.destroy();
    });
    out.once('connect', () => {
      opened = true;
      request.outbound = { localAddress: out.localAddress ?? '', localPort: out.localPort ?? 0 };
      reply('REQUEST_GRANTED');
      conn.socket.pipe(out).pipe(conn.socket);
    });
    conn.socket.once('close', () => out.destroy());
  });

  const server: Server = createServer((socket) => {
    track(socket);
    socks._handleConnection(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  const credentials = options.auth ? `${encodeURIComponent(options.auth.username)}:${encodeURIComponent(options.auth.password)}@` : '';
  return {
    host,
    port,
    url: `socks5://${credentials}${host}:${port}`,
    outboundAddress,
    requests,
    get authFailures() {
      return state.authFailures;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
    reset() {
      requests.length = 0;
      state.authFailures = 0;
    },
  };
}

function remoteOf(socket: unknown): string {
  return (socket as Socket).remoteAddress ?? '';
}
