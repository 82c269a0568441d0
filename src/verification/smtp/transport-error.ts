/** How an SMTP conversation's socket failed: the transport's one error type. */
export type TransportFailure =
  /** Nothing listens (RST). */
  | 'refused'
  /** No route, host down, network down. */
  | 'unreachable'
  /** The TCP handshake did not finish within the connect timeout (the overall deadline not yet reached). */
  | 'connect-timeout'
  /** The overall deadline passed. */
  | 'timeout'
  /** The server closed the connection. */
  | 'closed'
  /** Unparseable, oversized or out-of-order data. */
  | 'protocol'
  /** The TLS handshake failed after STARTTLS was accepted. */
  | 'tls'
  /** The SOCKS proxy probes go through is down, silent, refused us or failed: nothing is known of the target. */
  | 'proxy';

export class TransportError extends Error {
  constructor(
    readonly kind: TransportFailure,
    detail: string,
  ) {
    super(detail);
    this.name = 'TransportError';
  }
}
