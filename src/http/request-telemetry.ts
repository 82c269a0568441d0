/**
 * One log line per answered request (method, redacted URL, status, time) instead of Fastify's two,
 * and, with metrics on, the request counter and latency histogram by route pattern: a pattern
 * (`/v5/list/:id`), never the URL, so no address, key or id ever becomes a label.
 */
import type { FastifyInstance } from 'fastify';
import { redactUrl } from '../core/logger.js';
import type { Metrics } from '../observability/metrics.js';

/** Probes every few seconds would drown the request log. */
const QUIET = new Set(['/healthz', '/readyz']);

export function installRequestTelemetry(app: FastifyInstance, metrics?: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    if (route === undefined || !QUIET.has(route)) {
      const url = redactUrl(request.url);
      request.log.info(
        { method: request.method, url, status: reply.statusCode, ms },
        `${request.method} ${url} ${reply.statusCode} ${ms} ms`,
      );
    }
    if (metrics) {
      const labels = { method: request.method, route: route ?? 'unmatched' };
      metrics.httpRequests.inc({ ...labels, status: String(reply.statusCode) });
      metrics.httpDuration.observe(labels, ms / 1000);
    }
    done();
  });
}
