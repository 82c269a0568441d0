/**
 * A scripted SMTP server on 127.0.0.1 (real sockets) for what the test world's well-behaved
 * smtp-server cannot be made to do. Tests call `closeScripted()` after each test.
 */
import { createServer, type Server, type Socket } from 'node:net';

export type Script = (command: string, reply: (text: string) => void, socket: Socket) => void;

const servers: Server[] = [];

export async function closeScripted(): Promise<void> {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
}

/**
 * A server that sends `banner`, then hands each command line to `script` (EHLO and QUIT are
 * answered for it). `chunks`: what arrived, as it arrived; `connections`: how many were accepted.
 */
export async function scripted(
  script: Script,
  banner = '220 scripted ESMTP',
  ehlo = ['250-scripted', '250 PIPELINING'],
): Promise<{ port: number; chunks: string[]; connections: () => number; server: Server }> {
  const chunks: string[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => sockets.delete(socket));
    const reply = (text: string) => void (socket.destroyed || socket.write(`${text}\r\n`));
    if (banner) reply(banner);
    let buffer = '';
    socket.on('data', (chunk) => {
      chunks.push(chunk.toString('latin1'));
      buffer += chunk.toString('latin1');
      let at: number;
      while ((at = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        if (/^EHLO /i.test(line)) ehlo.forEach(reply);
        else if (/^QUIT/i.test(line)) {
          reply('221 bye');
          socket.end();
        } else script(line, reply, socket);
      }
    });
  });
  const origClose = server.close.bind(server);
  server.close = ((cb?: (err?: Error) => void) => {
    sockets.forEach((socket) => socket.destroy());
    return origClose(cb);
  }) as Server['close'];
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { port: address.port, chunks, connections: () => connections, server };
}
