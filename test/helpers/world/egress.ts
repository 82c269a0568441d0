/**
 * Egress faults of the prober's own network, on loopback: a port where nothing listens on any of
 * the world's addresses (port 25 blocked: every connection refused), and one where every address
 * accepts and never speaks (a filter that holds connections: every probe times out).
 */
import { createServer, type Server, type Socket } from 'node:net';
import { isRefused, randomPort, withFreePort } from './ports.js';

/** A port refused on every given address. */
export async function closedPort(addresses: readonly string[]): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = randomPort();
    const refused = await Promise.all(addresses.map((address) => isRefused(address, port)));
    if (refused.every(Boolean)) return port;
  }
  throw new Error('no port refused on every address');
}

/** Listens on `addresses` at one port, accepts every connection and says nothing. */
export async function startSilentListeners(addresses: readonly string[]): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const servers: Server[] = [];
  const hold = (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => sockets.delete(socket));
  };
  const close = async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  };
  const port = await withFreePort(async (port) => {
    try {
      for (const address of addresses) {
        const server = createServer(hold);
        servers.push(server);
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, address, () => resolve());
        });
      }
      return port;
    } catch (error) {
      await close();
      throw error;
    }
  });
  return { port, close };
}
