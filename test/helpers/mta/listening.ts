/** Waits for a real MTA to answer on its address: connects until it is accepted (no fixed sleeps). */
import { connect } from 'node:net';

export async function waitForListener(host: string, port: number, exited: () => string | undefined, limitMs = 30_000): Promise<void> {
  const until = Date.now() + limitMs;
  for (;;) {
    const why = exited();
    if (why !== undefined) throw new Error(`the MTA on ${host}:${port} stopped before it listened: ${why}`);
    if (await accepts(host, port)) return;
    if (Date.now() > until) throw new Error(`nothing listened on ${host}:${port} within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
