/**
 * Behind a TLS-terminating proxy (MAILSURE_TRUST_PROXY) we serve plain HTTP, so the proxy must
 * say the client used HTTPS; anything else is refused (decisions §2). Health probes are exempt:
 * load balancers send them over plain HTTP.
 */
import type { FastifyInstance } from 'fastify';
import { errors } from '../core/errors.js';

const EXEMPT = new Set(['/healthz', '/readyz']);

export function installHttpsOnly(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (EXEMPT.has(request.url)) return;
    const proto = request.headers['x-forwarded-proto'];
    const first = (Array.isArray(proto) ? proto[0] : proto)?.split(',')[0]?.trim().toLowerCase();
    if (first !== 'https') throw errors.httpsRequired();
  });
}
