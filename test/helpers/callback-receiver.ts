/** A local HTTP server standing in for an integrator's callback URL: records every POST. */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCallback {
  body: string;
  signature: string | undefined;
}

export async function startCallbackReceiver(): Promise<{ url: string; received: ReceivedCallback[]; close(): void }> {
  const received: ReceivedCallback[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ body, signature: req.headers['x-mailsure-signature'] as string | undefined });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, close: () => server.close() };
}
