/**
 * Prometheus metrics on a listener of their own (MAILSURE_METRICS), never on the API port: the
 * API port faces customers, metrics are for the operator's network. Plain HTTP, GET /metrics only.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.js';

export interface MetricsServer {
  /** The port it listens on (the configured one, or the one chosen for port 0). */
  port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(metrics: Metrics, listen: { host: string; port: number }): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics')
      return void response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: metrics are at /metrics\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') return void response.writeHead(405, { allow: 'GET, HEAD' }).end();
    metrics.render().then(
      (text) =>
        response
          .writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' })
          .end(request.method === 'HEAD' ? undefined : text),
      (error: unknown) =>
        response
          .writeHead(500, { 'content-type': 'text/plain' })
          .end(`metrics failed: ${error instanceof Error ? error.message : String(error)}\n`),
    );
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The start-up line naming where Prometheus should scrape. */
export function metricsLine(host: string, port: number): string {
  const shown = host.includes(':') ? `[${host}]` : host;
  return `Prometheus metrics on http://${shown}:${port}/metrics`;
}
