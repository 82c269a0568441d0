/** A minimal line client for the world's own tests: proves server behaviour without our prober. */
import { connect, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';

export interface RawSmtp {
  socket: Socket | TLSSocket;
  /** Next complete reply, as its lines. */
  reply(timeoutMs?: number): Promise<string[]>;
  send(line: string, timeoutMs?: number): Promise<string[]>;
  startTls(): Promise<void>;
  close(): void;
}

export function rawConnect(host: string, port: number): Promise<RawSmtp> {
  return new Promise((resolve, reject) => {
    const plain = connect({ host, port });
    plain.once('error', reject);
    plain.once('connect', () => {
      plain.off('error', reject);
      resolve(wrap(plain));
    });
  });
}

function wrap(initial: Socket): RawSmtp {
  let socket: Socket | TLSSocket = initial;
  let buffer = '';
  let lines: string[] = [];
  let waiter: (() => void) | undefined;
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let at: number;
    while ((at = buffer.indexOf('\n')) >= 0) {
      lines.push(buffer.slice(0, at).replace(/\r$/, ''));
      buffer = buffer.slice(at + 1);
    }
    waiter?.();
  };
  const listen = (s: Socket | TLSSocket) => {
    s.on('data', onData);
    s.on('error', () => undefined);
    s.on('close', () => waiter?.());
  };
  listen(socket);

  const reply = (timeoutMs = 2000) =>
    new Promise<string[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiter = undefined;
        reject(new Error('no reply in time'));
      }, timeoutMs);
      const check = () => {
        const end = lines.findIndex((line) => /^\d{3}( |$)/.test(line));
        if (end >= 0) {
          const out = lines.slice(0, end + 1);
          lines = lines.slice(end + 1);
          clearTimeout(timer);
          waiter = undefined;
          resolve(out);
        } else if (socket.destroyed || socket.readableEnded) {
          clearTimeout(timer);
          waiter = undefined;
          reject(new Error('connection closed'));
        }
      };
      waiter = check;
      check();
    });

  return {
    get socket() {
      return socket;
    },
    reply,
    send(line, timeoutMs) {
      socket.write(`${line}\r\n`);
      return reply(timeoutMs);
    },
    startTls: () =>
      new Promise((resolve, reject) => {
        socket.off('data', onData);
        const secure = tlsConnect({ socket: socket as Socket, rejectUnauthorized: false, servername: 'mx.world' });
        secure.once('error', reject);
        secure.once('secureConnect', () => {
          secure.off('error', reject);
          socket = secure;
          listen(secure);
          resolve();
        });
      }),
    close: () => socket.destroy(),
  };
}
