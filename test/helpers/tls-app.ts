/** A test app listening on HTTPS on loopback, for tests that need a real socket (raw bytes, slow bodies). */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTls } from '../../src/http/tls.js';
import { makeTestApp, type TestApp, type TestAppOptions } from './app.js';

export interface TlsTestApp {
  t: TestApp;
  port: number;
  /** The server's self-signed certificate (PEM), for clients to trust. */
  cert: Buffer;
  close(): Promise<void>;
}

export async function startTlsTestApp(options: TestAppOptions = {}): Promise<TlsTestApp> {
  const tlsDir = await mkdtemp(join(tmpdir(), 'mailsure-tls-'));
  const tls = await loadTls({ tls: null, dataDir: tlsDir });
  const t = await makeTestApp({ ...options, https: tls });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    t,
    cert: tls.cert,
    port: (t.app.server.address() as AddressInfo).port,
    async close() {
      await t.close();
      await rm(tlsDir, { recursive: true, force: true });
    },
  };
}

export interface RawAnswer {
  status: number;
  /** Response header value by lower-case name ('' when absent). */
  header(name: string): string;
  body: string;
}

/** Writes raw bytes to the app over TLS and reads until the server closes the connection. */
export function rawExchange(port: number, bytes: Buffer | string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', rejectUnauthorized: false }, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const [top = '', body = ''] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(top)?.[1]),
        header: (name) => new RegExp(`\r\n${name}: *([^\r\n]+)`, 'i').exec(top)?.[1] ?? '',
        body,
      });
    });
  });
}
