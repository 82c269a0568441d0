/**
 * A TCP connection to an MX address through a SOCKS5 proxy (RFC 1928, user/password RFC 1929),
 * with the failures told apart the way the transport needs them:
 *
 * - the proxy itself down, silent, refusing our credentials or its own rules, or failing
 *   ("general failure") → `proxy`: a fault of our egress, never evidence about the domain;
 * - the proxy's answer about the destination (connection refused, host or network unreachable,
 *   TTL expired), or silence after it was asked to connect → what a direct connection would
 *   have said (`refused`, `unreachable`, `connect-timeout`).
 *
 * The destination is always an IP address the caller checked against the target policy: a name
 * would let the proxy resolve it to wherever it likes, past that check.
 */
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { SocksClient } from 'socks';
import { describeProxy, type SocksProxy } from '../../core/socks-proxy-url.js';
import { TransportError, type TransportFailure } from './transport-error.js';

export interface SocksConnectOptions {
  proxy: SocksProxy;
  /** An IP address: the proxy gets no name to resolve. */
  address: string;
  port: number;
  /** How long the whole of it may take: TCP to the proxy, the SOCKS handshake, the proxy's connect. */
  timeoutMs: number;
  /** The failure a time-out at the destination is (`connect-timeout`, or `timeout` when the deadline is what ran out). */
  onTimeout: 'connect-timeout' | 'timeout';
}

/** What the proxy said about the destination, in the socks library's error text (`… - ConnectionRefused`). */
const DESTINATION: Record<string, TransportFailure> = {
  ConnectionRefused: 'refused',
  HostUnreachable: 'unreachable',
  NetworkUnreachable: 'unreachable',
  TTLExpired: 'connect-timeout',
};

export function connectThroughSocks(options: SocksConnectOptions): Promise<Socket> {
  const { proxy } = options;
  const label = describeProxy(proxy);
  if (isIP(options.address) === 0)
    return Promise.reject(
      new TransportError('unreachable', `${options.address} is not an IP address: the proxy is given checked addresses only`),
    );
  return new Promise((resolve, reject) => {
    let settled = false;
    const raw = netConnect({ host: proxy.host, port: proxy.port });
    raw.setNoDelay(true);
    // Bytes the proxy sent: its method choice (2), then its authentication status (2) when it
    // asked for one. Past those it has our CONNECT and is dialling the destination.
    let received = 0;
    const count = (chunk: Buffer) => (received += chunk.length);
    raw.on('data', count);
    const settle = (outcome: Socket | TransportError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      raw.off('data', count);
      if (outcome instanceof TransportError) {
        raw.destroy();
        reject(outcome);
      } else resolve(outcome);
    };
    const timer = setTimeout(() => {
      const dialling = received >= (proxy.username ? 4 : 2);
      settle(
        dialling
          ? new TransportError(
              options.onTimeout,
              `no connection to ${options.address}:${options.port} through ${label} in ${options.timeoutMs} ms`,
            )
          : new TransportError('proxy', `${label} did not answer in ${options.timeoutMs} ms`),
      );
    }, options.timeoutMs);

    raw.once('error', (error: NodeJS.ErrnoException) =>
      settle(new TransportError('proxy', `${label}: ${error.code ?? 'error'}: ${error.message}`)),
    );
    raw.once('connect', () => {
      raw.removeAllListeners('error');
      const client = new SocksClient({
        proxy: {
          host: proxy.host,
          port: proxy.port,
          type: 5,
          ...(proxy.username ? { userId: proxy.username, password: proxy.password ?? '' } : {}),
        },
        command: 'connect',
        destination: { host: options.address, port: options.port },
        existing_socket: raw,
        // Ours decides; the library's own must never fire first.
        timeout: options.timeoutMs + 60_000,
      });
      client.once('established', ({ socket }) => settle(socket));
      client.once('error', (error: Error) => {
        // The library's error carries its options, password included: only its text goes on.
        const answer = / - (\w+)$/.exec(error.message)?.[1];
        const kind = answer ? DESTINATION[answer] : undefined;
        settle(
          kind
            ? new TransportError(kind, `${options.address}:${options.port} through ${label}: ${answer}`)
            : new TransportError('proxy', `${label}: ${error.message}`),
        );
      });
      client.connect(raw);
    });
  });
}
