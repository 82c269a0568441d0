/**
 * A loopback SMTP server that notes when each connection arrives, for throttling tests: the
 * connections a budget let through are counted where a provider would count them. It accepts
 * every recipient but `unknown@…` (550 5.1.1), and while `slowDown` is on answers RCPT the way
 * Gmail does when it rate-limits a sender (421 4.7.0).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CountingSmtp {
  port: number;
  address: string;
  /** Arrival time (Date.now()) of each connection, in order. */
  connections: number[];
  /** The client address of each connection, in the same order (an egress's source address). */
  from: string[];
  /** Answer RCPT with Gmail's rate-limit reply. */
  slowDown: boolean;
  close(): Promise<void>;
}

const GOOGLE_SLOW_DOWN =
  '4.7.0 [127.0.0.1] Our system has detected an unusual rate of unsolicited mail originating from your IP address. To protect our users from spam, mail sent from your IP address has been temporarily rate limited. - gsmtp';

export async function startCountingSmtp(address = '127.0.0.1'): Promise<CountingSmtp> {
  const state: CountingSmtp = { port: 0, address, connections: [], from: [], slowDown: false, close: async () => undefined };
  const fail = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onConnect(session, callback) {
      state.connections.push(Date.now());
      state.from.push(session.remoteAddress);
      callback();
    },
    onRcptTo(rcpt, _session, callback) {
      if (state.slowDown) return callback(fail(421, GOOGLE_SLOW_DOWN));
      if (rcpt.address.startsWith('unknown@'))
        return callback(fail(550, '5.1.1 The email account that you tried to reach does not exist. - gsmtp'));
      callback();
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, address, () => resolve());
  });
  state.port = (server.server.address() as AddressInfo).port;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
