/**
 * A TCP proxy on loopback that can stop forwarding without closing anything: how a paused or
 * overloaded server looks to its clients (connections open, no answers). For fault-injection
 * tests of Redis and PostgreSQL.
 */
import { connect, createServer, type Socket } from 'node:net';

export interface PausableProxy {
  /** `127.0.0.1:PORT` */
  port: number;
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startPausableProxy(target: { host: string; port: number }): Promise<PausableProxy> {
  let paused = false;
  const sockets = new Set<Socket>();
  const held: { to: Socket; data: Buffer }[] = [];
  const forward = (from: Socket, to: Socket) =>
    from.on('data', (data: Buffer) => {
      if (paused) held.push({ to, data });
      else to.write(data);
    });
  const server = createServer((client) => {
    const upstream = connect(target);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.once('close', () => sockets.delete(s));
    }
    forward(client, upstream);
    forward(upstream, client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    pause: () => void (paused = true),
    resume() {
      paused = false;
      for (const { to, data } of held.splice(0)) to.write(data);
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
