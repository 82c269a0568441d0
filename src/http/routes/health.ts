/** Liveness and readiness for load balancers and orchestrators; no key needed. */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { errors } from '../../core/errors.js';
import type { ProberHealthBody } from '../../verification/health/render-health.js';
import { ErrorBody } from '../schemas/errors.js';

export type ReadinessCheck = () => Promise<void>;

const Concern = Type.Object({
  state: Type.Union(['ok', 'degraded', 'failed', 'unknown'].map((s) => Type.Literal(s))),
  evidence: Type.Array(Type.String()),
  hint: Type.Optional(Type.String()),
  checked_at: Type.Optional(Type.String({ format: 'date-time' })),
});
const ProberBody = Type.Object(
  {
    mailbox_verification: Type.Union([Type.Literal('available'), Type.Literal('unavailable')]),
    resolver: Concern,
    smtp_egress: Concern,
    identity: Concern,
    smtp_egresses: Type.Optional(
      Type.Object(
        { healthy: Type.Integer({ minimum: 0 }), total: Type.Integer({ minimum: 1 }) },
        { description: 'At depth mailbox: how many SMTP egresses are in rotation, of how many (a count only; mailsure doctor names them)' },
      ),
    ),
  },
  { description: 'Prober health: whether this process can trust its resolver and reach port 25; it never changes the status code' },
);

const ListStoreBody = Type.Object(
  {
    state: Type.Union([Type.Literal('ok'), Type.Literal('failed')]),
    evidence: Type.Array(Type.String()),
    hint: Type.Optional(Type.String()),
  },
  { description: 'The object store of lists (MAILSURE_LIST_STORE): whether it answers; it never changes the status code' },
);

/**
 * `checks` decide readiness (the database, Redis). `prober`, when given, is reported beside them
 * and never makes the process unready: verification without a trusted network answers `unknown`,
 * and the other endpoints do not depend on it. Nor does the object store of lists (`listStore`,
 * when configured): single calls never need it, and lists wait for it.
 */
/** How long a dependency may take to answer `/readyz` before it counts as not answering. */
export const READINESS_DEADLINE_MS = 2_000;

export function healthRoutes(
  app: FastifyInstance,
  checks: Record<string, ReadinessCheck>,
  prober?: () => ProberHealthBody,
  deadlineMs = READINESS_DEADLINE_MS,
  listStore?: ReadinessCheck,
): void {
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'health',
        tags: ['health'],
        summary: 'The process is up',
        response: { 200: Type.Object({ status: Type.Literal('ok') }, { description: 'Up' }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'readiness',
        tags: ['health'],
        summary: 'The process can serve: its database (and Redis, when configured) answer',
        response: {
          200: Type.Object(
            { status: Type.Literal('ready'), prober: Type.Optional(ProberBody), list_store: Type.Optional(ListStoreBody) },
            { description: 'Ready' },
          ),
          503: Type.Object(
            { ...ErrorBody.properties, prober: Type.Optional(ProberBody), list_store: Type.Optional(ListStoreBody) },
            { description: 'A dependency is not answering' },
          ),
        },
      },
    },
    async (request, reply) => {
      const extra = {
        ...(prober ? { prober: prober() } : {}),
        ...(listStore ? { list_store: await storeState(listStore, deadlineMs) } : {}),
      };
      for (const [name, check] of Object.entries(checks)) {
        try {
          // A dependency that stalls (a paused Redis, a database behind a held lock) must make the
          // process unready within seconds, not make the probe hang.
          await withDeadline(check(), deadlineMs, `no answer within ${deadlineMs} ms`);
        } catch (error) {
          request.log.warn({ err: error, dependency: name }, 'readiness check failed');
          const unready = errors.dependencyNotAnswering(name);
          return reply.code(503).send({ ...unready.toBody(), ...extra });
        }
      }
      return { status: 'ready' as const, ...extra };
    },
  );
}

/** Said in the public body without the store's address: whether it answered, and what that means. */
async function storeState(check: ReadinessCheck, deadlineMs: number): Promise<Static<typeof ListStoreBody>> {
  try {
    await withDeadline(check(), deadlineMs, `no answer within ${deadlineMs} ms`);
    return { state: 'ok', evidence: ['the object store answered'] };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const reason = (error as Error).message?.startsWith('no answer within')
      ? (error as Error).message
      : code
        ? `no answer (${code})`
        : 'no answer';
    return {
      state: 'failed',
      evidence: [`the object store: ${reason}`],
      hint: 'list submits and downloads answer 503 and lists wait until it answers again; single calls are not affected',
    };
  }
}

async function withDeadline<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
