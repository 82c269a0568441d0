/**
 * Ephemeral ports for the test world. We pick random high ports ourselves (rather than port 0)
 * because several listeners must share one number: the SMTP servers all sit on the same port on
 * distinct loopback addresses (the product has a single MAILSURE_SMTP_PORT), and the DNS server
 * answers UDP and TCP on the same port (c-ares falls back to TCP on the port it was given).
 */
import { connect } from 'node:net';

const LOW = 20_000;
const HIGH = 60_000;
const ATTEMPTS = 50;

export function randomPort(): number {
  return LOW + Math.floor(Math.random() * (HIGH - LOW));
}

export function isAddressInUse(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  // EACCES shows up for ports reserved by the OS on some systems; another port will do.
  return code === 'EADDRINUSE' || code === 'EACCES';
}

/**
 * Runs `bindAll(port)` on random ports until it succeeds. `bindAll` must undo its own partial
 * binds before rejecting, so a retry starts clean.
 */
export async function withFreePort<T>(bindAll: (port: number) => Promise<T>): Promise<T> {
  let last: unknown;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      return await bindAll(randomPort());
    } catch (error) {
      if (!isAddressInUse(error)) throw error;
      last = error;
    }
  }
  throw new Error(`no free port after ${ATTEMPTS} attempts`, { cause: last });
}

/**
 * True when nothing accepts connections at address:port. A "refuse" server is an address where
 * we deliberately listen on nothing; another process could hold that same port, so we check.
 */
export function isRefused(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** An EADDRINUSE-shaped error, so `withFreePort` retries when a port fails a check of ours. */
export function addressInUse(message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code: 'EADDRINUSE' });
}
