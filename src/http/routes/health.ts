/** Liveness and readiness for load balancers and orchestrators; no key needed. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ErrorBody } from '../schemas/verification.js';

export type ReadinessCheck = () => Promise<void>;

export function healthRoutes(app: FastifyInstance, checks: Record<string, ReadinessCheck>): void {
  app.get(
    '/healthz',
    { schema: { summary: 'The process is up', response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        summary: 'The process can serve: its database (and Redis, when configured) answer',
        response: { 200: Type.Object({ status: Type.Literal('ready') }), 503: ErrorBody },
      },
    },
    async (request, reply) => {
      for (const [name, check] of Object.entries(checks)) {
        try {
          await check();
        } catch (error) {
          request.log.warn({ err: error, dependency: name }, 'readiness check failed');
          return reply.code(503).send({ error_code: 503, error_msg: `${name} is not answering` });
        }
      }
      return { status: 'ready' as const };
    },
  );
}
