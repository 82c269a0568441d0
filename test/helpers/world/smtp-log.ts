/** What a test SMTP server saw, so tests can assert identity, TLS use and session reuse. */
import type { SmtpBehaviour } from './smtp-behaviour.js';

export interface SmtpSessionLog {
  id: string;
  remoteAddress: string;
  /** The client's port: with the address, the very connection (a proxy's outbound one, say). */
  remotePort: number;
  /** Name given in EHLO/HELO (known once the client sent MAIL FROM, or the session closed). */
  helo?: string;
  /** `EHLO` or `HELO`. */
  openingCommand?: string;
  /** The session was upgraded with STARTTLS. */
  tls: boolean;
  mailFrom: { address: string; smtputf8: boolean }[];
  rcpts: { address: string; code: number }[];
}

export interface SmtpServerLog {
  name: string;
  address: string;
  behaviour: SmtpBehaviour;
  /** TCP connections accepted (also for the raw tarpit/hostile servers). */
  connections: number;
  /**
   * Sessions open right now (from TCP accept until QUIT, or until the socket closes), and the
   * most ever open at once.
   */
  active: number;
  maxActive: number;
  /** SMTP sessions (smtp-server based behaviours only), in connection order. */
  sessions: SmtpSessionLog[];
}

export function emptyLog(name: string, address: string, behaviour: SmtpBehaviour): SmtpServerLog {
  return { name, address, behaviour, connections: 0, active: 0, maxActive: 0, sessions: [] };
}

/** Clears what was seen; `active` stays, it describes the present. */
export function clearLog(log: SmtpServerLog): void {
  log.connections = 0;
  log.maxActive = log.active;
  log.sessions.length = 0;
}
