/** A test app listening on HTTPS on loopback, for tests that need a real socket (raw bytes, slow bodies). */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTls } from '../../src/http/tls.js';
import { makeTestApp, type TestApp, type TestAppOptions } from './app.js';

export interface TlsTestApp {
  t: TestApp;
  port: number;
  close(): Promise<void>;
}

export async function startTlsTestApp(options: TestAppOptions = {}): Promise<TlsTestApp> {
  const tlsDir = await mkdtemp(join(tmpdir(), 'mailsure-tls-'));
  const t = await makeTestApp({ ...options, https: await loadTls({ tls: null, dataDir: tlsDir }) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    t,
    port: (t.app.server.address() as AddressInfo).port,
    async close() {
      await t.close();
      await rm(tlsDir, { recursive: true, force: true });
    },
  };
}
