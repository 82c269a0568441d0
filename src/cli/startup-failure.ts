/**
 * The one line `mailsure` prints for a start-up failure an operator can fix, or undefined for a
 * bug (which keeps its stack trace). Storage and TLS throw StartupError themselves; listening
 * fails inside Fastify with a plain Node error, recognised here by its code.
 */
import { StartupError } from '../core/startup-error.js';

export function startupFailure(error: unknown): string | undefined {
  if (error instanceof StartupError) return error.message;
  const { code, syscall, port, address } = (error ?? {}) as { code?: unknown; syscall?: unknown; port?: unknown; address?: unknown };
  if (syscall !== 'listen') return undefined;
  const where = `${typeof address === 'string' ? address : 'host'}:${String(port)}`;
  if (code === 'EADDRINUSE') return `cannot listen on ${where}: the port is already in use; set MAILSURE_PORT to a free port`;
  if (code === 'EACCES') return `cannot listen on ${where}: not allowed to use this port; set MAILSURE_PORT to 1024 or above`;
  if (code === 'EADDRNOTAVAIL') return `cannot listen on ${where}: no such address on this machine; set MAILSURE_HOST`;
  return undefined;
}
